import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { AddressPolicy } from '../dns/addresses.js';

/**
 * The one HTTP boundary of RDAP (RFC 7480): every answer from the internet comes through here, bounded
 * in time (one deadline over all redirects), size (the body is cut off past `maxBytes`) and hops, and
 * every failure is a value, never a throw (docs/requirements.md R49).
 */

export interface HttpLimits {
  /** The whole exchange, redirects included. */
  deadlineMs: number;
  maxBytes: number;
  /** RFC 7480 §5.2 lets a server redirect; a chain longer than this is refused. */
  maxRedirects: number;
}

export type HttpFailure = 'timeout' | 'too_large' | 'redirects' | 'not_public' | 'insecure' | 'network';

/** `retryAfter`: the last answer's Retry-After header, when it sent one (a 429, RFC 6585 §4). */
export type HttpOutcome =
  | { ok: true; status: number; body: string; retryAfter?: string }
  | { ok: false; failure: HttpFailure };

export interface HttpTarget {
  /**
   * Who may be asked. `trusted`: the operator's own URL (RDAP_BOOTSTRAP_URL), asked as given, like the
   * configured resolvers. Otherwise an RDAP server named by the bootstrap file or a redirect, data from
   * the internet: asked over HTTPS at public addresses only, or at an address inside LIVE_CHECK_ALLOW
   * (a lab), where plain HTTP is accepted too.
   */
  trust: 'trusted' | AddressPolicy;
  accept: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

class Refused extends Error {
  constructor(readonly failure: HttpFailure) {
    super(failure);
  }
}

/** GETs `url`, following redirects; resolves with the last answer (any status) or the failure. */
export async function boundedGet(url: string, target: HttpTarget, limits: HttpLimits): Promise<HttpOutcome> {
  const signal = AbortSignal.timeout(limits.deadlineMs);
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    return { ok: false, failure: 'network' };
  }
  for (let hop = 0; hop <= limits.maxRedirects; hop++) {
    try {
      const answer = await once(current, target, limits, signal);
      const location = answer.headers.location;
      const retryAfter = answer.headers['retry-after'];
      if (!REDIRECTS.has(answer.status) || location === undefined)
        return {
          ok: true,
          status: answer.status,
          body: answer.body,
          ...(retryAfter === undefined ? {} : { retryAfter }),
        };
      current = new URL(location, current);
    } catch (error) {
      if (signal.aborted) return { ok: false, failure: 'timeout' };
      return { ok: false, failure: error instanceof Refused ? error.failure : 'network' };
    }
  }
  return { ok: false, failure: 'redirects' };
}

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

function once(url: URL, target: HttpTarget, limits: HttpLimits, signal: AbortSignal): Promise<Answer> {
  const secure = url.protocol === 'https:';
  if (!secure && url.protocol !== 'http:') return Promise.reject(new Refused('insecure'));
  const policy = target.trust === 'trusted' ? undefined : target.trust;
  // Plain HTTP only to a lab the operator allowed; on the internet an RDAP answer must be authentic.
  const refusal = (address: string): HttpFailure | undefined => {
    const verdict = policy?.judge(address) ?? 'allowed';
    if (verdict === 'allowed' || (secure && verdict === 'public')) return undefined;
    return verdict === 'public' ? 'insecure' : 'not_public';
  };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host) === 0 ? undefined : refusal(host);
  if (literal !== undefined) return Promise.reject(new Refused(literal));
  const options: RequestOptions = {
    method: 'GET',
    headers: { accept: target.accept, 'user-agent': 'regdesk' },
    signal,
    // The address is judged where the socket gets it, so a name cannot answer one way here and another
    // at connect time (DNS rebinding).
    lookup: guardedLookup(refusal),
    // A connection of its own each time: a pooled keep-alive socket would skip the lookup, and with it
    // the judgement of the address (RDAP questions are few; reuse saves nothing that matters).
    agent: false,
  };
  return new Promise<Answer>((resolve, reject) => {
    const request = (secure ? httpsRequest : httpRequest)(url, options, (response) => {
      const declared = Number(response.headers['content-length'] ?? '0');
      // Settled before the socket is torn down: the teardown's own events must not name the failure.
      if (declared > limits.maxBytes) {
        reject(new Refused('too_large'));
        response.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) {
          reject(new Refused('too_large'));
          response.destroy();
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', reject);
      // A connection that closes before the body is complete (after 'end', this settles nothing).
      response.on('close', () => {
        if (!response.complete) reject(new Refused('network'));
      });
    });
    request.on('error', reject);
    request.end();
  });
}

/** `dns.lookup` that hands the socket only acceptable addresses (`all` is asked by autoSelectFamily). */
function guardedLookup(refusal: (address: string) => HttpFailure | undefined): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, found: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const usable = found.filter((entry) => refusal(entry.address) === undefined);
      const first = usable[0];
      if (first === undefined) {
        const refused = new Refused(refusal(found[0]?.address ?? '') ?? 'not_public');
        return callback(Object.assign(refused, { code: refused.failure }), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      return callback(null, first.address, first.family);
    });
  };
}
