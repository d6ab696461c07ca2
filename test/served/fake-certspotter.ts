import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/**
 * A local stand-in for Cert Spotter's issuances API v1 (test/fixtures/certspotter/README.md): pages of
 * issuances by `after` (the first page without one, an empty array past the last), and answers a
 * test queues ahead of them (a 429 with Retry-After, a 500, a body too large). Anything but
 * `GET /v1/issuances` is a 404 and counted, so a test can prove nothing else was asked.
 */

export interface CtRequest {
  domain: string | null;
  after: string | null;
  includeSubdomains: string | null;
  expand: string[];
  authorization: string | undefined;
}

export interface FakeCertSpotter {
  /** CT_API_URL. */
  url: string;
  requests: CtRequest[];
  unexpected: string[];
  /** The pages, keyed by the `after` that reaches them ('' for the first). */
  pages: Map<string, unknown[]>;
  /** Answers given before the pages, in order, one per request. */
  queue: Array<{ status: number; headers?: Record<string, string>; body?: string }>;
  stop(): Promise<void>;
}

export function fixture(name: string): Array<Record<string, unknown>> {
  return JSON.parse(readFileSync(new URL(`../fixtures/certspotter/${name}`, import.meta.url), 'utf8'));
}

export async function startFakeCertSpotter(): Promise<FakeCertSpotter> {
  const requests: CtRequest[] = [];
  const unexpected: string[] = [];
  const pages = new Map<string, unknown[]>();
  const queue: FakeCertSpotter['queue'] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method !== 'GET' || url.pathname !== '/v1/issuances') {
      unexpected.push(`${req.method} ${url.pathname}`);
      res.writeHead(404).end();
      return;
    }
    requests.push({
      domain: url.searchParams.get('domain'),
      after: url.searchParams.get('after'),
      includeSubdomains: url.searchParams.get('include_subdomains'),
      expand: url.searchParams.getAll('expand'),
      authorization: req.headers.authorization,
    });
    const queued = queue.shift();
    if (queued !== undefined) {
      res.writeHead(queued.status, { 'content-type': 'application/json', ...queued.headers });
      res.end(queued.body ?? '{"code":"error","message":"queued by the test"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(pages.get(url.searchParams.get('after') ?? '') ?? []));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    unexpected,
    pages,
    queue,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
