import type { DnsClient } from '../../dns/client.js';
import type { TrustAnchor } from '../../dns/validator.js';
import type { RegistrarClient } from '../../registrar/index.js';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { escapeMrkdwn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import { findingText, fixText } from '../diagnostics/blocks.js';
import type { ProductsCa } from '../diagnostics/caa.js';
import type { Area, NotChecked } from '../diagnostics/findings.js';
import { diagnose, type Paced, type RegistrarFacts } from '../diagnostics/service.js';
import type { RenewalLedger } from '../tls/renewals.js';
import type { Alert } from './alert.js';
import { itemName } from './blocks.js';
import type { WatchItem, WatchState } from './store.js';

export interface DnsLookDeps {
  dnsClient: DnsClient;
  productsCa: ProductsCa;
  trustAnchors: readonly TrustAnchor[];
  renewals: Pick<RenewalLedger, 'ordersUnder'>;
  now: () => number;
  logger: Logger;
}

/** The areas a check that could not be made leaves unknown: their earlier findings still stand. */
const UNKNOWN_AREAS: Record<NotChecked['what']['code'], readonly Area[]> = {
  parent: ['delegation', 'dnssec'],
  server: ['delegation', 'dnssec', 'validation'],
  serverAddress: ['delegation', 'dnssec', 'validation'],
  registrar: ['delegation', 'dnssec', 'validation'],
  resolver: ['delegation', 'dnssec'],
  caa: ['caa'],
  mail: ['mail'],
  validation: ['validation'],
  unasked: ['delegation', 'dnssec', 'validation'],
};

/**
 * A watched domain's live DNS check, the same as `/dns check` (features/diagnostics), with the
 * registrar's answers the look already read. Only broken and risky findings are raised (advice stays
 * in `/dns check`), each once: a finding is new when the previous look did not have it. Where a check
 * could not be made this time, that area's earlier findings are kept, so a timeout neither clears a
 * finding nor raises it again when the answer returns.
 */
export async function dnsLook(
  deps: DnsLookDeps,
  source: { registrar: RegistrarClient; workspace: WorkspaceRef; paced: Paced; known: RegistrarFacts },
  item: WatchItem,
  previous: WatchState,
): Promise<{ findings: string[] | undefined; alerts: Alert[] }> {
  let report: Awaited<ReturnType<typeof diagnose>>;
  try {
    const diagnostics = {
      dns: deps.dnsClient,
      ledger: deps.renewals,
      now: deps.now,
      productsCa: deps.productsCa,
      trustAnchors: deps.trustAnchors,
    };
    report = await diagnose(diagnostics, source, item.id);
  } catch (error) {
    // Not a DNS failure (those are "could not check" inside the report): the registrar look stands.
    deps.logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'watch DNS check failed',
    );
    return { findings: previous.dnsFindings, alerts: [] };
  }
  const unknown = new Set(report.notChecked.flatMap((entry) => UNKNOWN_AREAS[entry.what.code]));
  const raised = report.findings.filter((finding) => finding.severity !== 'advice');
  const current = raised.map((finding) => `${finding.area}|${finding.key}`);
  const kept = (previous.dnsFindings ?? []).filter((key) => unknown.has(key.split('|')[0] as Area));
  const before = new Set(previous.dnsFindings ?? []);
  const name = `*${escapeMrkdwn(itemName(item))}*`;
  const nameservers =
    report.delegation.zoneNs.length > 0 ? report.delegation.zoneNs : report.delegation.parentNs;
  const alerts = raised
    .filter((finding) => !before.has(`${finding.area}|${finding.key}`))
    .map((finding): Alert => {
      const sentence = findingText(finding);
      return {
        mark: `domain:${item.id}:dns:${finding.key}:${previous.checkedAt ?? 0}`,
        level: 'warn',
        text: text.watches.dnsFindingAlert({
          name,
          finding: sentence,
          fixes: (finding.fix ?? []).map((fix) => fixText(fix, nameservers)).join('\n'),
          domain: item.id,
        }),
        buttons: ['show'],
        cause: { kind: 'dns-finding', code: finding.code },
        line: text.watches.dnsFindingLine({ name, finding: sentence }),
      };
    });
  return { findings: [...new Set([...current, ...kept])], alerts };
}
