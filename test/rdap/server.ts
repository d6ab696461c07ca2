import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local RDAP world over real HTTP: IANA's bootstrap file and one registry's RDAP server (RFC 9224
 * and RFC 9083 examples, test/fixtures/rdap/). Each domain answers as the test says: a domain object,
 * an error status, silence, too much, or something that is not RDAP. Unknown names are 404 (RFC 7480 §5.3).
 */

const fixture = (name: string) => readFileSync(new URL(`../fixtures/rdap/${name}`, import.meta.url), 'utf8');
const BOOTSTRAP = fixture('bootstrap.json');
const DOMAIN = JSON.parse(fixture('domain.json')) as Record<string, unknown>;

export type Answer =
  | { kind: 'domain'; expires?: Date; statuses?: string[]; registrar?: string }
  | { kind: 'status'; status: number; headers?: Record<string, string> }
  | { kind: 'hang' }
  | { kind: 'huge' }
  /** Streams without a Content-Length, for as long as the client reads. */
  | { kind: 'flood' }
  | { kind: 'malformed' }
  | { kind: 'not-rdap' }
  | { kind: 'redirect'; to: string };

export class RdapWorld {
  readonly answers = new Map<string, Answer>();
  /** Requests for the bootstrap file, and for domains (by name). */
  bootstrapReads = 0;
  readonly domainReads: string[] = [];
  /** The bootstrap file's server fails (HTTP 503) while this is set. */
  bootstrapDown = false;
  /** How the bootstrap file names the registry: by address, or by a name (`localhost`) to resolve. */
  registryHost = '127.0.0.1';
  #server: Server | undefined;
  #port = 0;

  async start(): Promise<this> {
    this.#server = createServer((request, response) => this.#answer(request, response));
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    this.#port = (this.#server.address() as AddressInfo).port;
    return this;
  }

  get base(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  get bootstrapUrl(): string {
    return `${this.base}/rdap/dns.json`;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise((resolve) => this.#server?.close(resolve));
  }

  #answer(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', this.base);
    if (url.pathname === '/rdap/dns.json') {
      this.bootstrapReads++;
      if (this.bootstrapDown) return void response.writeHead(503).end();
      // RFC 9224's example names registry.example.com; here the registry is this server. Its other
      // services point here too (unknown paths are 404), so no test reaches the internet by a TLD.
      const registry = this.base.replace('127.0.0.1', this.registryHost);
      const file = BOOTSTRAP.replace('https://registry.example.com/myrdap/', `${registry}/myrdap/`).replace(
        /https?:\/\/example\.(org|net)\//g,
        `${this.base}/elsewhere/`,
      );
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(file);
    }
    const match = /^\/myrdap\/domain\/([^/]+)$/.exec(url.pathname);
    const name = decodeURIComponent(match?.[1] ?? '');
    this.domainReads.push(name);
    const answer = this.answers.get(name);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      response
        .writeHead(status, { 'content-type': 'application/rdap+json', ...headers })
        .end(JSON.stringify(body));
    if (answer === undefined) return void json(404, { errorCode: 404, title: 'Not Found' });
    switch (answer.kind) {
      case 'domain':
        return void json(200, domainObject(name, answer));
      case 'status':
        return void json(answer.status, { errorCode: answer.status, title: 'Error' }, answer.headers);
      case 'hang':
        return; // never answers
      case 'huge':
        return void json(200, {
          ...domainObject(name, { kind: 'domain' }),
          remarks: [{ description: ['x'.repeat(400_000)] }],
        });
      case 'flood': {
        response.writeHead(200, { 'content-type': 'application/rdap+json' });
        const more = () => {
          while (!response.destroyed && response.write(`${' '.repeat(16_384)}`));
          if (!response.destroyed) response.once('drain', more);
        };
        more();
        return;
      }
      case 'malformed':
        return void response
          .writeHead(200, { 'content-type': 'application/rdap+json' })
          .end('{"objectClassName": "domain", ');
      case 'not-rdap':
        return void json(200, { objectClassName: 'entity', handle: name });
      case 'redirect':
        return void response.writeHead(302, { location: answer.to }).end();
    }
  }
}

function domainObject(name: string, answer: Extract<Answer, { kind: 'domain' }>): Record<string, unknown> {
  const events = (DOMAIN.events as { eventAction: string }[]).filter((e) => e.eventAction !== 'expiration');
  const entities = (DOMAIN.entities as { roles: string[]; vcardArray: unknown }[]).filter(
    (entity) => answer.registrar !== undefined || !entity.roles.includes('registrar'),
  );
  return {
    ...DOMAIN,
    ldhName: name,
    unicodeName: name,
    status: answer.statuses ?? DOMAIN.status,
    events: [
      ...events,
      ...(answer.expires === undefined
        ? []
        : [{ eventAction: 'expiration', eventDate: answer.expires.toISOString() }]),
    ],
    entities: entities.map((entity) =>
      entity.roles.includes('registrar')
        ? {
            ...entity,
            vcardArray: [
              'vcard',
              [
                ['version', {}, 'text', '4.0'],
                ['fn', {}, 'text', answer.registrar],
              ],
            ],
          }
        : entity,
    ),
  };
}
