import type { DnsClient } from '../../dns/client.js';
import type { TrustAnchor } from '../../dns/validator.js';
import {
  type DnssecState,
  type Domain,
  NotFoundError,
  type RegistrarClient,
  RegistrarError,
} from '../../registrar/index.js';
import { AppError } from '../../shared/app-error.js';
import { settled } from '../../shared/settled.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';
import { checkCaa, type ProductsCa } from './caa.js';
import { checkDelegation } from './delegation.js';
import {
  checkDnssec,
  type DnssecVerdict,
  type RegistrarDnssec,
  type ResolversValidate,
  type VerdictBasis,
} from './dnssec.js';
import { type Finding, type NotChecked, ranked, type Why } from './findings.js';
import { checkMail } from './mail.js';
import { checkValidation, type PendingValidation } from './validation.js';

/**
 * The certificate orders Regdesk placed under a domain, newest first (features/tls/renewals.ts
 * `RenewalLedger` answers it): seen through this one method, so the TLS feature, which runs this
 * feature's CAA check before an order, is the only one of the two to import the other.
 */
export interface PlacedOrders {
  ordersUnder(
    workspace: WorkspaceRef,
    domain: string,
  ): Promise<
    readonly {
      id: string;
      placedAt: number;
      validation?: readonly { name: string; type: string; value: string }[] | undefined;
    }[]
  >;
}

export interface DiagnosticsDeps {
  dns: DnsClient;
  /** Orders Regdesk placed, with their validation records (the registrar shows them only once). */
  ledger: PlacedOrders;
  now: () => number;
  /** The CA behind the registrar's products, per workspace (caa.ts). */
  productsCa: ProductsCa;
  /** DNSSEC_TRUST_ANCHOR: the root DS records Regdesk validates chains from (dns/validator.ts). */
  trustAnchors: readonly TrustAnchor[];
}

/** Runs one registrar call (watches pass their pace; `/dns check` calls directly). */
export type Paced = <T>(call: () => Promise<T>) => Promise<T>;
const direct: Paced = (call) => call();

/** What the registrar says of the domain, as the checks compare it. */
export interface RegistrarFacts {
  nameservers: string[];
  dnssec?: RegistrarDnssec;
}

export interface DiagnoseSource {
  registrar: RegistrarClient;
  workspace: WorkspaceRef;
  paced?: Paced;
  /** Already read (a watch's look has them): the registrar is not asked again. */
  known?: RegistrarFacts;
}

export interface DnsReport {
  domain: string;
  checkedAt: number;
  /** Broken before risky before advice. */
  findings: Finding[];
  notChecked: NotChecked[];
  delegation: { parent?: string; parentNs: string[]; zoneNs: string[]; registrarNs?: string[] };
  dnssec: {
    registrar?: RegistrarDnssec;
    verdict: DnssecVerdict;
    basis: VerdictBasis;
    resolversValidate: ResolversValidate;
    ds: string[];
  };
  /** Pending certificates whose validation records every authoritative nameserver serves. */
  validationVisible: Array<{ id: string; count: number }>;
}

/** Orders older than this cannot be pending any more (a CA gives validation 30 days). */
const PENDING_FOR_MS = 30 * 86_400_000;

/**
 * `/dns check` and the watches' DNS look: what the rest of the internet sees of a domain, beside
 * what the registrar says. Every DNS question goes out live; a question that is not answered is
 * "could not check", never a finding. Registrar reads: the domain (nameservers), its DNSSEC state,
 * and each pending order Regdesk placed under it.
 */
export async function diagnose(
  deps: DiagnosticsDeps,
  source: DiagnoseSource,
  domain: string,
): Promise<DnsReport> {
  const { registrar, workspace, paced = direct } = source;
  // One check's bounds: 4 addresses per nameserver, 16 in all, 8 questions at once, 20 s (contract §3).
  const dns = deps.dns.forCheck();
  const notChecked: NotChecked[] = [];
  const read =
    source.known === undefined ? readRegistrar(registrar, domain, paced) : Promise.resolve(source.known);
  // Each part is started at once and awaited later: `settled` keeps one that fails while another is
  // awaited from becoming an unhandled rejection (its error still reaches whoever awaits it).
  const registrarView = settled(
    read.catch((error: unknown) => {
      notChecked.push({ what: { code: 'registrar' }, why: registrarReason(error) });
      return undefined;
    }),
  );
  const pending = settled(
    pendingValidations(deps, registrar, workspace, domain, paced).catch((error: unknown) => {
      notChecked.push({ what: { code: 'registrar' }, why: registrarReason(error) });
      return [];
    }),
  );
  const caa = settled(
    deps.productsCa
      .for(workspaceId(workspace), () => paced(() => registrar.tls.products()))
      .then((ca) => checkCaa(dns, domain, ca)),
  );
  const mail = settled(checkMail(dns, domain));
  const seen = await registrarView;
  const delegation = await checkDelegation(dns, domain, seen?.nameservers);
  const [dnssec, validation] = await Promise.all([
    checkDnssec(dns, domain, delegation, seen?.dnssec, { now: deps.now(), anchors: deps.trustAnchors }),
    pending.then((orders) => checkValidation(dns, delegation.servers, orders)),
  ]);
  const parts = [delegation, dnssec, await caa, await mail, validation];
  return {
    domain,
    checkedAt: deps.now(),
    findings: ranked(parts.flatMap((part) => part.findings)),
    notChecked: [...notChecked, ...parts.flatMap((part) => part.notChecked)],
    delegation: {
      ...(delegation.parent === undefined ? {} : { parent: delegation.parent }),
      parentNs: delegation.parentNs,
      zoneNs: delegation.zoneNs,
      ...(seen === undefined ? {} : { registrarNs: seen.nameservers }),
    },
    dnssec: {
      ...(seen?.dnssec === undefined ? {} : { registrar: seen.dnssec }),
      verdict: dnssec.verdict,
      basis: dnssec.basis,
      resolversValidate: dnssec.resolversValidate,
      ds: dnssec.ds,
    },
    validationVisible: validation.visible,
  };
}

async function readRegistrar(
  registrar: RegistrarClient,
  domain: string,
  paced: Paced,
): Promise<RegistrarFacts> {
  const details = await paced(() => registrar.domains.get(domain));
  return registrarFacts(details, await paced(() => registrar.dnssec.get(domain)));
}

/** The registrar's domain and DNSSEC answers as the checks compare them. */
export function registrarFacts(details: Domain, state: DnssecState): RegistrarFacts {
  const dnssec =
    state.desired_state === undefined && state.live_state === undefined
      ? undefined
      : { desired: state.desired_state ?? 'disabled', live: state.live_state ?? 'disabled' };
  return { nameservers: details.nameservers, ...(dnssec === undefined ? {} : { dnssec }) };
}

/** Orders Regdesk placed under the domain that are still pending, with the records they wait for. */
async function pendingValidations(
  deps: DiagnosticsDeps,
  registrar: RegistrarClient,
  workspace: WorkspaceRef,
  domain: string,
  paced: Paced,
): Promise<PendingValidation[]> {
  const recent = (await deps.ledger.ordersUnder(workspace, domain)).filter(
    (order) => order.validation !== undefined && order.placedAt > deps.now() - PENDING_FOR_MS,
  );
  const pending: PendingValidation[] = [];
  for (const order of recent) {
    const certificate = await paced(() => registrar.tls.get(order.id)).catch((error: unknown) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
    if (certificate?.status === 'pending' && order.validation !== undefined)
      pending.push({ id: order.id, records: order.validation });
  }
  return pending;
}

function registrarReason(error: unknown): Why {
  if (error instanceof NotFoundError) return { code: 'notInAccount' };
  if (error instanceof RegistrarError || error instanceof AppError)
    return { code: 'registrar', message: error.userMessage };
  throw error;
}
