import type { Config } from '../config.js';
import { DnsClient } from '../dns/client.js';
import { resolversValidate } from '../dns/resolver-check.js';
import { isListening } from '../runtime/local-redis.js';
import { type DoctorWords, type Finding, fix, note, ok } from './report.js';

/**
 * The resolvers of live checks (DNS_RESOLVERS, else the system's): the root zone's SOA asked with DO
 * must come back (else `/dns check` and confirming published records cannot work) and, from a
 * validating resolver, with AD. Not validating is a note: Regdesk then validates from the root itself (R50).
 */
export async function checkResolvers(config: Config, words: DoctorWords): Promise<Finding> {
  const dns = new DnsClient({
    ...(config.dnsResolvers === undefined ? {} : { resolvers: config.dnsResolvers }),
    ...(config.liveCheckAllow === undefined ? {} : { allowed: config.liveCheckAllow }),
  });
  const servers =
    config.dnsResolvers === undefined
      ? `${words.systemResolvers} (${dns.resolvers.map((s) => `${s.host}:${s.port}`).join(', ')})`
      : config.dnsResolvers.map((s) => `${s.host}:${s.port}`).join(', ');
  const subject = words.subjectResolvers;
  switch (await resolversValidate(dns)) {
    case 'validating':
      return ok(subject, words.resolversValidating({ servers }));
    case 'notValidating':
      return note(subject, words.resolversNotValidating({ servers }));
    case 'unreachable':
      return fix(subject, words.resolversUnreachable({ servers }));
  }
}

/** Whether Regdesk answers on a local port: its fronts all answer `/livez` (slack/http-front.ts). */
async function regdeskAnswers(port: number): Promise<boolean> {
  try {
    const answer = await fetch(`http://127.0.0.1:${port}/livez`, { signal: AbortSignal.timeout(2_000) });
    await answer.body?.cancel();
    return answer.ok;
  } catch {
    return false;
  }
}

/**
 * The ports Regdesk listens on as configured (PORT; METRICS_PORT when set; WORKER_PORT of
 * `regdesk worker`): free, so Regdesk can take it, or held by a Regdesk that answers there. Held by
 * anything else, Regdesk could not start, or probes and scrapes reach the wrong program.
 */
export async function checkPorts(config: Config, words: DoctorWords): Promise<Finding[]> {
  const ports: Array<[string, number]> = [
    ['PORT', config.port],
    ...(config.metricsPort === undefined ? [] : [['METRICS_PORT', config.metricsPort] as [string, number]]),
    ['WORKER_PORT', config.workerPort],
  ];
  return Promise.all(
    ports.map(async ([variable, port]) => {
      const subject = words.subjectPort({ variable, port });
      if (port === 0) return ok(subject, words.portChosenAtStart);
      if (!(await isListening('127.0.0.1', port))) return ok(subject, words.portFree);
      if (await regdeskAnswers(port)) return ok(subject, words.portRegdesk);
      return fix(subject, words.portTaken({ variable }));
    }),
  );
}
