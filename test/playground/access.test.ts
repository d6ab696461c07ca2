import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Running } from '../../src/main.js';
import { PlaygroundToken } from '../../src/playground/guard.js';
import { startPlaygroundProcess } from '../helpers/playground.js';

// docs/requirements.md R42: every playground path needs this process's token (or the cookie the page
// sets from it), also when a same-host proxy makes the loopback and Host checks pass.

let running: Running;
let port: number;
let printedUrl: string;
let proxy: Server;
let proxyPort: number;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request; an event stream is read until its first frame, then dropped. */
function send(
  target: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: target,
        path,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          if (String(res.headers['content-type']).includes('text/event-stream')) {
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
            req.destroy();
          }
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The playground's paths, each as the page would call it (POSTs from its own origin). */
function paths(): Array<{ path: string; method?: string; headers?: Record<string, string>; body?: string }> {
  const origin = `http://localhost:${port}`;
  const post = (path: string, body: unknown) => ({
    path,
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return [
    { path: '/playground' },
    { path: '/playground/' },
    { path: '/playground/assets/style.css' },
    { path: '/playground/assets/app.js' },
    { path: '/playground/api/state' },
    { path: '/playground/api/events' },
    { path: '/playground/files/F1000' },
    post('/playground/api/composer', {
      user: 'U0ADA',
      channel: 'C0GENERAL',
      text: '/domain check example.com',
    }),
    post('/playground/api/clock', { advanceMs: 1000 }),
  ];
}

beforeAll(async () => {
  running = await startPlaygroundProcess();
  port = running.http?.port ?? 0;
  printedUrl = running.playground?.url ?? '';
  // The attack: a reverse proxy on the same host (nginx's default rewrites Host to the upstream's),
  // or a port forwarder that connects from 127.0.0.1. To Regdesk every request looks local.
  proxy = createServer((req, res) => {
    const upstream = request(
      {
        host: '127.0.0.1',
        port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: `localhost:${port}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyPort = (proxy.address() as AddressInfo).port;
});

afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  await running?.stop();
});

describe('the playground token', () => {
  it('is in the printed URL, fresh and long', () => {
    const url = new URL(printedUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`http://localhost:${port}/playground`);
    expect(url.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new PlaygroundToken().value).not.toBe(new PlaygroundToken().value);
    const token = new PlaygroundToken('abc');
    expect(token.matches('abc')).toBe(true);
    expect(token.matches('abcd')).toBe(false);
    expect(token.matches('')).toBe(false);
    expect(token.matches(undefined)).toBe(false);
  });

  it('answers 403 on every playground path without it, directly and through a same-host proxy', async () => {
    for (const target of [port, proxyPort]) {
      for (const { path, ...options } of paths()) {
        const answer = await send(target, path, options);
        expect({ target: target === port ? 'direct' : 'proxy', path, status: answer.status }).toEqual({
          target: target === port ? 'direct' : 'proxy',
          path,
          status: 403,
        });
        expect(answer.body).not.toContain('"workspace"');
      }
    }
    // `/` stays open, and sends no token along.
    const root = await send(proxyPort, '/');
    expect(root.status).toBe(302);
    expect(root.headers.location).toBe('/playground');
    expect(root.headers['set-cookie']).toBeUndefined();
  });

  it('answers 403 to a wrong token or cookie, and takes the token on the page only', async () => {
    const token = new URL(printedUrl).searchParams.get('token') ?? '';
    for (const target of [port, proxyPort]) {
      expect((await send(target, '/playground?token=wrong')).status).toBe(403);
      expect((await send(target, `/playground?token=${token.slice(0, -1)}`)).status).toBe(403);
      expect(
        (
          await send(target, '/playground/api/state', {
            headers: { cookie: `regdesk_playground_${port}=wrong` },
          })
        ).status,
      ).toBe(403);
    }
    // The API does not take it from the URL: only the page trades it for the cookie.
    expect((await send(port, `/playground/api/state?token=${token}`)).status).toBe(403);
  });

  it('trades the token for an HttpOnly, SameSite=Strict cookie and a redirect without it; the cookie opens everything', async () => {
    const { pathname, search } = new URL(printedUrl);
    const login = await send(port, `${pathname}${search}`, { headers: { host: `localhost:${port}` } });
    expect(login.status).toBe(302);
    expect(login.headers.location).toBe('/playground');
    const setCookie = login.headers['set-cookie']?.[0] ?? '';
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).toMatch(/; Path=\/playground(;|$)/);
    expect(login.headers['referrer-policy']).toBe('no-referrer');
    const cookie = setCookie.split(';')[0] ?? '';

    const page = await send(port, '/playground', { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Regdesk playground</title>');
    expect((await send(port, '/playground/assets/style.css', { headers: { cookie } })).status).toBe(200);
    const state = await send(port, '/playground/api/state', { headers: { cookie } });
    expect(state.status).toBe(200);
    expect(JSON.parse(state.body)).toMatchObject({ workspace: { name: 'Playground' } });
    const events = await send(port, '/playground/api/events', { headers: { cookie } });
    expect(events.status).toBe(200);
    expect(events.headers['content-type']).toContain('text/event-stream');
    const composer = await send(port, '/playground/api/composer', {
      method: 'POST',
      headers: { cookie, origin: `http://127.0.0.1:${port}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'U0ADA', channel: 'C0GENERAL', text: '/domain check example.com' }),
    });
    expect(composer.status).toBe(200);
    expect(JSON.parse(composer.body)).toEqual({ ok: true });
    // The Origin check stays as a second layer: the cookie does not make a foreign POST acceptable.
    const foreign = await send(port, '/playground/api/clock', {
      method: 'POST',
      headers: { cookie, origin: 'http://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: 1000 }),
    });
    expect(foreign.status).toBe(403);
  });
});
