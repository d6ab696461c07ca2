import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Web API call as it reached the gate: its method and arguments. */
export interface GatedCall {
  method: string;
  args: Record<string, unknown>;
}

/**
 * Stands between a Regdesk process (its `SLACK_API_URL`) and the Slack stand-in. Every call goes
 * through, except those a test holds: they are never answered and never reach Slack, as a process
 * killed while Slack had not taken its call yet. So a test can kill a process at a moment it sees
 * (the call it waits on has arrived), not at a moment it guesses.
 */
export class SlackGate {
  url = '';
  /** The calls held so far, in order of arrival. */
  readonly held: GatedCall[] = [];
  readonly #holds: Array<(call: GatedCall) => boolean> = [];
  #server: Server | undefined;

  constructor(private readonly target: string) {}

  /** For `SLACK_API_URL`. */
  get apiUrl(): string {
    return `${this.url}/api/`;
  }

  /** From now on, every call `matches` picks is held. */
  hold(matches: (call: GatedCall) => boolean): void {
    this.#holds.push(matches);
  }

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      void (async () => {
        const body = await readAll(req);
        const method = (req.url ?? '').split('?')[0]?.replace(/^\/api\//, '') ?? '';
        const call = { method, args: argsOf(body, req.headers['content-type']) };
        if (this.#holds.some((matches) => matches(call))) {
          // Never answered: the caller waits until it gives up or dies.
          this.held.push(call);
          return;
        }
        const headers = Object.fromEntries(
          Object.entries(req.headers).flatMap(([name, value]) =>
            typeof value === 'string' && name !== 'host' && name !== 'content-length' ? [[name, value]] : [],
          ),
        );
        const answer = await fetch(new URL(req.url ?? '/', this.target), {
          method: req.method ?? 'POST',
          headers,
          ...(body.length === 0 ? {} : { body }),
        });
        res.writeHead(answer.status, {
          'content-type': answer.headers.get('content-type') ?? 'application/json',
          ...(answer.headers.has('retry-after')
            ? { 'retry-after': answer.headers.get('retry-after') ?? '' }
            : {}),
        });
        res.end(await answer.text());
      })().catch(() => res.writeHead(502).end());
    });
    const server = this.#server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Slack's SDK sends form bodies whose object-valued fields are JSON; some calls send JSON. */
function argsOf(body: Buffer, contentType: string | undefined): Record<string, unknown> {
  const text = body.toString('utf8');
  if (text === '') return {};
  if (contentType?.includes('application/json')) return JSON.parse(text) as Record<string, unknown>;
  return Object.fromEntries(new URLSearchParams(text));
}
