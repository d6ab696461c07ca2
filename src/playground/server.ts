import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { PlaygroundActions } from './actions.js';
import { DEMO_CSR_FORM, demoCsr } from './demo-csr.js';
import { checkToken, PAGE_PATHS, type PlaygroundToken, playgroundRefusal } from './guard.js';
import {
  ActionSchema,
  ClockSchema,
  ComposerSchema,
  DemoCsrSchema,
  HomeOpenedSchema,
  LanguageSchema,
  MessageShortcutSchema,
  ReactionSchema,
  ViewClosedSchema,
  ViewSubmissionSchema,
} from './inputs.js';
import { InputError, parse, readJson, SECURITY_HEADERS, sendJson } from './json-io.js';
import type { PlaygroundManifest } from './manifest.js';
import type { RegistrarPanel } from './registrar.js';
import { BOT_USER, type SlackStandIn, WORKSPACE } from './slack-standin.js';
import type {
  ApiResult,
  DemoCsrResult,
  PlaygroundEvent,
  PlaygroundSnapshot,
  PlaygroundView,
} from './web/protocol.js';
import { BOT_NAME, PLAYGROUND_USERS, playgroundChannels } from './workspace.js';

/** A comment line keeps idle event streams open through proxies and lets us notice gone clients. */
const HEARTBEAT_MS = 15_000;
const ASSET_NAME = /^[a-z0-9][a-z0-9_-]{0,63}\.(css|js)$/;
/** The page renders Regdesk's JSON itself: no inline script, nothing from elsewhere but images. */
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export interface PlaygroundServerOptions {
  slack: SlackStandIn;
  actions: PlaygroundActions;
  registrar: RegistrarPanel;
  manifest: PlaygroundManifest;
  /** The package root: the page is read from src/playground/web/static, its scripts from dist/. */
  root: string;
  /** This process's token (guard.ts): every path but `/` needs it. */
  token: PlaygroundToken;
  /**
   * Tells Regdesk a member's language changed: it keeps people's Slack locales a while (slack/language.ts),
   * and the playground's switch should take effect with the next message, not after that while.
   */
  languageChanged?: (user: string) => Promise<void>;
}

type Handler = (body: unknown) => Promise<ApiResult> | ApiResult;

/**
 * The playground's HTTP routes, mounted on Regdesk's HTTP front: the page, its assets, the snapshot,
 * the live event stream and the page's actions (web/protocol.ts). Every route answers this machine
 * only, and every one but the redirect at `/` only with this process's token (guard.ts,
 * docs/requirements.md R42); anyone else gets 403.
 */
export class PlaygroundServer {
  #streams = new Set<ServerResponse>();
  #heartbeat: NodeJS.Timeout;
  #unsubscribe: Array<() => void> = [];
  readonly #api: Record<string, Handler>;

  constructor(private readonly options: PlaygroundServerOptions) {
    const { actions, registrar } = options;
    this.#api = {
      composer: (body) => actions.composer(parse(ComposerSchema, body)),
      action: (body) => actions.action(parse(ActionSchema, body)),
      'view-submission': (body) => actions.viewSubmission(parse(ViewSubmissionSchema, body)),
      'view-closed': (body) => actions.viewClosed(parse(ViewClosedSchema, body)),
      'home-opened': (body) => {
        const { user, tab } = parse(HomeOpenedSchema, body);
        return actions.homeOpened(user, tab);
      },
      shortcut: (body) => actions.messageShortcut(parse(MessageShortcutSchema, body)),
      reaction: (body) => actions.reaction(parse(ReactionSchema, body)),
      language: async (body) => {
        const { user, locale } = parse(LanguageSchema, body);
        const member = PLAYGROUND_USERS.find((candidate) => candidate.id === user);
        const known = options.slack.users.get(user);
        if (member === undefined || known === undefined) return { ok: false, error: `No member ${user}.` };
        options.slack.users.set(user, { ...known, locale });
        await options.languageChanged?.(user);
        this.#broadcast({ type: 'user', user: { ...member, locale } });
        return { ok: true };
      },
      'demo-csr': async (body): Promise<DemoCsrResult> => ({
        ok: true,
        csr: demoCsr(parse(DemoCsrSchema, body).names),
      }),
      clock: async (body) => {
        const moved = await registrar.advance(parse(ClockSchema, body).advanceMs);
        return moved ? { ok: true } : { ok: false, error: 'not_the_sandbox', notice: { kind: 'clockFixed' } };
      },
    };
    this.#unsubscribe.push(
      options.slack.onChange((event) => this.#broadcast(event)),
      registrar.onChange((snapshot) => this.#broadcast({ type: 'registrar', registrar: snapshot })),
    );
    this.#heartbeat = setInterval(() => {
      for (const stream of this.#streams) stream.write(': keep-alive\n\n');
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  /** Routes `/` and `/playground/*`; false for any other path (the HTTP front answers those). */
  async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    if (path !== '/' && path !== '/playground' && !path.startsWith('/playground/')) return false;
    const refusal = playgroundRefusal(req);
    if (refusal !== undefined) {
      // Outside this machine the playground does not exist; `/` stays the HTTP front's 404.
      if (path === '/') return false;
      sendJson(res, 403, { ok: false, error: refusal });
      return true;
    }
    const method = req.method ?? 'GET';
    if (path === '/') {
      // Open, and without the token: whoever has it opens the printed URL itself.
      res.writeHead(302, { location: '/playground', ...SECURITY_HEADERS }).end();
      return true;
    }
    const token = checkToken(req, path, this.options.token);
    if (token.kind === 'refused') {
      sendJson(res, 403, { ok: false, error: token.reason });
      return true;
    }
    if (token.kind === 'exchange') {
      // The token leaves the address bar (history, bookmarks, shoulder-surfing); the cookie carries it.
      res
        .writeHead(302, { location: token.location, 'set-cookie': token.setCookie, ...SECURITY_HEADERS })
        .end();
      return true;
    }
    if (method === 'GET' && PAGE_PATHS.has(path)) {
      await this.#file(res, join(this.options.root, 'src/playground/web/static/index.html'), 'text/html');
      return true;
    }
    if (method === 'GET' && path.startsWith('/playground/assets/')) {
      await this.#asset(res, path.slice('/playground/assets/'.length));
      return true;
    }
    if (method === 'GET' && path.startsWith('/playground/files/')) {
      this.#download(res, path.slice('/playground/files/'.length));
      return true;
    }
    if (method === 'GET' && path === '/playground/api/state') {
      sendJson(res, 200, this.snapshot());
      return true;
    }
    if (method === 'GET' && path === '/playground/api/events') {
      this.#stream(req, res);
      return true;
    }
    const handler = path.startsWith('/playground/api/')
      ? this.#api[path.slice('/playground/api/'.length)]
      : undefined;
    if (handler === undefined) {
      sendJson(res, 404, { ok: false, error: 'not_found' });
      return true;
    }
    if (method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: false, error: 'method_not_allowed' }));
      return true;
    }
    const body = await readJson(req);
    if (!body.ok) {
      sendJson(res, body.status, { ok: false, error: body.error });
      return true;
    }
    try {
      const result = await handler(body.value);
      sendJson(res, 200, result);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      sendJson(res, 400, { ok: false, error: error.message });
    }
    return true;
  }

  snapshot(): PlaygroundSnapshot {
    const { slack, manifest, registrar } = this.options;
    const views: Record<string, PlaygroundView[]> = {};
    const homes: Record<string, unknown> = {};
    for (const user of PLAYGROUND_USERS) {
      const stack = slack.viewStack(user.id);
      if (stack.length > 0) views[user.id] = stack;
      const home = slack.homes.get(user.id);
      if (home !== undefined) homes[user.id] = home;
    }
    return {
      workspace: { id: WORKSPACE, name: slack.workspaceName },
      bot: { userId: BOT_USER, name: BOT_NAME },
      users: PLAYGROUND_USERS.map((user) => ({
        ...user,
        locale: slack.users.get(user.id)?.locale ?? user.locale,
      })),
      channels: playgroundChannels(slack),
      messages: slack.allMessages(),
      views,
      homes,
      commands: manifest.commands,
      messageShortcuts: manifest.messageShortcuts,
      suggestedPrompts: Object.fromEntries(slack.suggestedPrompts),
      threadStatuses: Object.fromEntries(
        [...slack.assistantThreads].flatMap(([key, thread]) =>
          thread.status === undefined || thread.status === '' ? [] : [[key, thread.status]],
        ),
      ),
      registrar: registrar.snapshot(),
      demoCsr: DEMO_CSR_FORM,
    };
  }

  close(): void {
    clearInterval(this.#heartbeat);
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    for (const stream of this.#streams) stream.end();
    this.#streams.clear();
  }

  #stream(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      connection: 'keep-alive',
      ...SECURITY_HEADERS,
    });
    // The page reconnects on its own (EventSource) and then reloads the snapshot.
    res.write('retry: 2000\n\n');
    this.#streams.add(res);
    req.socket.setKeepAlive(true);
    const drop = () => this.#streams.delete(res);
    req.on('close', drop);
    res.on('error', drop);
  }

  #broadcast(event: PlaygroundEvent): void {
    const line = `data: ${JSON.stringify(event)}\n\n`;
    for (const stream of this.#streams) stream.write(line);
  }

  async #asset(res: ServerResponse, name: string): Promise<void> {
    if (!ASSET_NAME.test(name)) {
      sendJson(res, 404, { ok: false, error: 'not_found' });
      return;
    }
    const { root } = this.options;
    // Styles ship as they are; scripts are compiled from web/*.ts into dist/ by `npm run build`.
    if (name.endsWith('.css'))
      await this.#file(res, join(root, 'src/playground/web/static', name), 'text/css');
    else await this.#file(res, join(root, 'dist/src/playground/web', name), 'text/javascript');
  }

  async #file(res: ServerResponse, path: string, type: string): Promise<void> {
    let content: Buffer;
    try {
      content = await readFile(path);
    } catch {
      sendJson(res, 404, {
        ok: false,
        error:
          type === 'text/javascript' ? 'not_found (run `npm run build` for the page scripts)' : 'not_found',
      });
      return;
    }
    res.writeHead(200, {
      'content-type': `${type}; charset=utf-8`,
      ...SECURITY_HEADERS,
      ...(type === 'text/html' ? { 'content-security-policy': PAGE_CSP } : {}),
    });
    res.end(content);
  }

  #download(res: ServerResponse, id: string): void {
    const file = /^F\d{1,20}$/.test(id) ? this.options.slack.files.get(id) : undefined;
    if (file === undefined) {
      sendJson(res, 404, { ok: false, error: 'file_not_found' });
      return;
    }
    const ascii = file.name.replace(/[^A-Za-z0-9._-]/g, '_') || 'file';
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      'content-length': String(file.bytes.length),
      ...SECURITY_HEADERS,
    });
    res.end(file.bytes);
  }
}
