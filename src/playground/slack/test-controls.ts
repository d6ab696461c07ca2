import type { MethodHandler, Responder, SlackCall } from './types.js';

/** Answers a call of `method` as usual, but only after `delayMs`: Slack on a slow day. */
export function slowResponder(
  methods: Record<string, MethodHandler>,
  method: string,
  delayMs: number,
): Responder {
  return (args) => {
    const handler = methods[method];
    return { body: handler === undefined ? { ok: false, error: 'unknown_method' } : handler(args), delayMs };
  };
}

/** Fails a call with a Slack platform error; `ratelimited` comes as a 429 with Retry-After. */
export function failingResponder(error: string, retryAfterSeconds: number): Responder {
  return () =>
    error === 'ratelimited'
      ? { status: 429, headers: { 'retry-after': String(retryAfterSeconds) }, body: { ok: false, error } }
      : { body: { ok: false, error } };
}

/** Polls until `predicate` holds over the calls so far; fails after `timeoutMs`. */
export async function waitForCalls(
  calls: SlackCall[],
  predicate: (calls: SlackCall[]) => boolean,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate(calls)) {
    if (Date.now() > deadline)
      throw new Error(`SlackStandIn.waitFor timed out; calls: ${calls.map((c) => c.method).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
