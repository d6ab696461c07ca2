import type { KnownBlock } from '@slack/types';
import { displayName } from '../../shared/domain-names.js';
import { context, header, packLines, section, slackDate } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn, truncate } from '../../slack/mrkdwn.js';
import { type Catalog, markup, text } from '../../text/index.js';
import type { Finding, Fix, NotChecked, Severity, Why } from './findings.js';
import type { DnsReport } from './service.js';

/** Findings shown one section each; Slack allows 50 blocks, and a longer list is not read anyway. */
const MAX_FINDINGS = 30;
const MAX_NOT_CHECKED_LINES = 20;

/** How a finding's severity is shown, before its sentence. */
function severityText(severity: Severity): string {
  const shown: Record<Severity, string> = {
    broken: text.diagnostics.severityBroken,
    risky: text.diagnostics.severityRisky,
    advice: text.diagnostics.severityAdvice,
  };
  return shown[severity];
}

/**
 * A finding's parameters for its sentence: the catalog escapes names, serials and record values, but
 * `date` is Slack's own `<!date^…>` token, written by the checks, which must stay as it is.
 */
function worded(params: Finding['params']): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(params).map(([key, value]) => [
      key,
      key === 'date' && typeof value === 'string' ? markup(value) : value,
    ]),
  );
}

/** The sentence of a finding, from the catalog. */
export function findingText(item: Finding, catalog: Catalog = text): string {
  const sentence = catalog.diagnosticFindings[item.code] as (params: Record<string, unknown>) => string;
  return sentence(worded(item.params));
}

/** The fix line of one record: what to set or remove, and where. */
export function fixText(fix: Fix, nameservers: readonly string[]): string {
  const record = codeSpan(`${fix.name}. ${fix.type} ${fix.value}`);
  const where =
    fix.where === 'registrar'
      ? fix.type === 'DS'
        ? text.diagnostics.whereParent
        : text.diagnostics.whereRegistrar
      : text.diagnostics.whereZone({
          nameservers:
            nameservers.length === 0 ? text.diagnostics.factsNone : nameservers.map(codeSpan).join(', '),
        });
  return fix.action === 'remove'
    ? text.diagnostics.removeLine({ record, where })
    : text.diagnostics.fixLine({ record, where });
}

export function whyText(why: Why): string {
  switch (why.code) {
    case 'timeout':
      return text.diagnostics.whyTimeout;
    case 'network':
      return text.diagnostics.whyNetwork({ detail: escapeMrkdwn(why.detail) });
    case 'answered':
      return text.diagnostics.whyAnswered({ rcode: escapeMrkdwn(why.rcode) });
    case 'notInAccount':
      return text.diagnostics.whyNotInAccount;
    case 'registrar':
      return text.diagnostics.whyRegistrar({ message: escapeMrkdwn(why.message) });
    case 'noAnswer':
      return text.diagnostics.whyNoAnswer;
    case 'limit':
      return text.diagnostics.whyLimit;
    case 'notPublic':
      return text.diagnostics.whyNotPublic({ address: escapeMrkdwn(why.address) });
  }
}

function whatText(item: NotChecked['what']): string {
  const t = text.diagnostics;
  switch (item.code) {
    case 'parent':
      return t.whatParent({ parent: codeSpan(item.parent) });
    case 'server':
      return t.whatServer({ host: codeSpan(item.host), address: escapeMrkdwn(item.address) });
    case 'serverAddress':
      return t.whatServerAddress({ host: codeSpan(item.host) });
    case 'registrar':
      return t.whatRegistrar;
    case 'resolver':
      return t.whatResolver;
    case 'caa':
      return t.whatCaa({ name: codeSpan(item.name) });
    case 'mail':
      return t.whatMail;
    case 'validation':
      return t.whatValidation({ id: codeSpan(item.id) });
    case 'unasked':
      return t.whatUnasked({ count: item.count });
  }
}

/** The DNSSEC verdict as the facts line says it: what, on whose word, and whether the resolvers validate. */
function verdictText(dnssec: DnsReport['dnssec']): string {
  const shown: Record<DnsReport['dnssec']['verdict'], string> = {
    secure: text.diagnostics.verdictSecure,
    insecure: text.diagnostics.verdictInsecure,
    bogus: text.diagnostics.verdictBogus,
    failing: text.diagnostics.verdictFailing,
    unknown: text.diagnostics.verdictUnknown,
    unvalidated: text.diagnostics.verdictUnvalidated,
  };
  const verdict = shown[dnssec.verdict];
  const sourced =
    dnssec.verdict === 'unknown' || dnssec.verdict === 'unvalidated'
      ? verdict
      : dnssec.basis === 'chain'
        ? text.diagnostics.byChain({ verdict })
        : text.diagnostics.byResolvers({ verdict });
  // "unvalidated" says it already; elsewhere the operator learns it beside a verdict of Regdesk's own.
  return dnssec.resolversValidate === 'no' && dnssec.verdict !== 'unvalidated'
    ? `${sourced}; ${text.diagnostics.resolversDoNotValidate}`
    : sourced;
}

const list = (names: readonly string[] | undefined) =>
  names === undefined || names.length === 0 ? text.diagnostics.factsNone : names.map(codeSpan).join(', ');

/** The `/dns check` card: findings ranked, each with its fix; what could not be checked; the facts. */
export function reportCard(report: DnsReport): { text: string; blocks: KnownBlock[] } {
  const name = displayName(report.domain);
  const count = (severity: Severity) => report.findings.filter((item) => item.severity === severity).length;
  const summary =
    report.findings.length === 0
      ? text.diagnostics.summaryClean({ name: escapeMrkdwn(name) })
      : text.diagnostics.summaryFindings({
          name: escapeMrkdwn(name),
          broken: count('broken'),
          risky: count('risky'),
          advice: count('advice'),
        });
  const zoneServers =
    report.delegation.zoneNs.length > 0 ? report.delegation.zoneNs : report.delegation.parentNs;
  const blocks: KnownBlock[] = [header(truncate(text.diagnostics.title({ name }), 150)), section(summary)];
  for (const item of report.findings.slice(0, MAX_FINDINGS)) {
    const fixes = (item.fix ?? []).map((fix) => fixText(fix, zoneServers));
    blocks.push(
      section(truncate([`${severityText(item.severity)} ${findingText(item)}`, ...fixes].join('\n'), 2_900)),
    );
  }
  if (report.findings.length > MAX_FINDINGS)
    blocks.push(context(text.diagnostics.truncated({ more: report.findings.length - MAX_FINDINGS })));
  if (report.notChecked.length > 0) {
    const lines = report.notChecked
      .slice(0, MAX_NOT_CHECKED_LINES)
      .map((item) => text.diagnostics.notCheckedLine({ what: whatText(item.what), why: whyText(item.why) }));
    blocks.push(...packLines([text.diagnostics.notCheckedTitle, ...lines]).slice(0, 2));
  }
  // One context block (at most ten elements) however many orders wait: the card stays within
  // Slack's 50 blocks with its Share button.
  if (report.validationVisible.length > 0)
    blocks.push(
      context(
        ...report.validationVisible.map((visible) =>
          text.diagnostics.validationVisible({ id: codeSpan(visible.id), count: visible.count }),
        ),
      ),
    );
  const registrar = report.dnssec.registrar;
  blocks.push(
    context(
      truncate(
        text.diagnostics.factsDelegation({
          parent: list(report.delegation.parentNs),
          zone: list(report.delegation.zoneNs),
          registrar: list(report.delegation.registrarNs),
        }),
        2_900,
      ),
      truncate(
        text.diagnostics.factsDnssec({
          registrar:
            registrar === undefined
              ? text.diagnostics.factsNone
              : text.diagnostics.registrarDnssec({
                  desired: text.dns.dnssecState({ state: registrar.desired }),
                  live: text.dns.dnssecState({ state: registrar.live }),
                }),
          verdict: verdictText(report.dnssec),
          ds:
            report.dnssec.ds.length === 0
              ? text.diagnostics.factsNone
              : report.dnssec.ds.map(codeSpan).join(', '),
        }),
        2_900,
      ),
      text.diagnostics.checkedAt({
        date: slackDate(report.checkedAt),
      }),
    ),
  );
  return { text: summary, blocks };
}
