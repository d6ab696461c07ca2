import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { prettifyError, z } from 'zod';
import { AppError } from './shared/app-error.js';

/**
 * Slack's app manifest as `manifest.yml` declares it: the parts Regdesk reads or rewrites are typed,
 * everything else is kept as it is (loose objects), so the printed manifest is `manifest.yml` apart
 * from the settings asked for. The full shape is Slack's JSON schema (slackapi/manifest-schema), which
 * the tests validate every variant against (test/fixtures/manifest-schema).
 */
const SlashCommand = z.lazy(() =>
  z.looseObject({
    command: z.string(),
    description: z.string(),
    usage_hint: z.string().optional(),
    url: z.string().optional(),
  }),
);
const Shortcut = z.lazy(() =>
  z.looseObject({
    name: z.string(),
    type: z.enum(['message', 'global']),
    callback_id: z.string(),
    description: z.string(),
  }),
);
export const SlackAppManifest = z.lazy(() =>
  z.looseObject({
    display_information: z.looseObject({ name: z.string() }),
    features: z
      .looseObject({
        app_home: z.looseObject({ messages_tab_enabled: z.boolean().optional() }).optional(),
        slash_commands: z.array(SlashCommand).optional(),
        shortcuts: z.array(Shortcut).optional(),
      })
      .optional(),
    oauth_config: z.looseObject({ redirect_urls: z.array(z.string()).optional() }).optional(),
    settings: z
      .looseObject({
        event_subscriptions: z
          .looseObject({ request_url: z.string().optional(), bot_events: z.array(z.string()).optional() })
          .optional(),
        interactivity: z
          .looseObject({ is_enabled: z.boolean(), request_url: z.string().optional() })
          .optional(),
        socket_mode_enabled: z.boolean().optional(),
      })
      .optional(),
  }),
);
export type SlackAppManifest = z.infer<typeof SlackAppManifest>;

/** Where Slack sends commands, events and interactions: one path (docs/requirements.md C2 "HTTP endpoints"). */
export const EVENTS_PATH = '/slack/events';
/** Where Slack sends an installing workspace back to in OAuth install mode. */
export const OAUTH_REDIRECT_PATH = '/slack/oauth_redirect';

/** The directory holding package.json, from a module in src/ (vitest) or in dist/src/ (built). */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the Regdesk modules');
    dir = parent;
  }
  return dir;
}

/** `manifest.yml` beside package.json (the Docker image copies it there too). */
export function manifestPath(): string {
  return join(packageRoot(), 'manifest.yml');
}

/** Reads a manifest written in YAML with the `yaml` library (YAML 1.2: comments, flow lists, quoting). */
export function parseAppManifest(text: string, source = 'manifest.yml'): SlackAppManifest {
  let raw: unknown;
  try {
    raw = parse(text, { uniqueKeys: true });
  } catch (error) {
    throw new AppError('regdesk_manifest_unreadable', `${source} is not valid YAML: ${String(error)}`);
  }
  const parsed = SlackAppManifest.safeParse(raw);
  if (!parsed.success)
    throw new AppError(
      'regdesk_manifest_unreadable',
      `${source} is not a Slack app manifest: ${prettifyError(parsed.error)}`,
    );
  return parsed.data;
}

export function loadAppManifest(path = manifestPath()): SlackAppManifest {
  return parseAppManifest(readFileSync(path, 'utf8'), path);
}

/**
 * The public host as Slack must be given it: a DNS name or IPv4 address, optionally with a port, and
 * nothing else. The scheme is always `https://` (Slack sends requests only over TLS) and the paths are
 * Regdesk's own, so a scheme or a path in the argument is a mistake worth naming.
 */
export function publicHost(input: string): string {
  const host = input.trim();
  const refuse = (why: string): never => {
    throw new AppError(
      'regdesk_manifest_host',
      `--host ${JSON.stringify(input)}: ${why}. Give the public host alone, e.g. --host regdesk.example.com (or regdesk.example.com:8443).`,
    );
  };
  if (host === '') refuse('it is empty');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(host)) refuse('leave out the scheme (https:// is added)');
  if (/[/?#]/.test(host)) refuse(`leave out the path (${EVENTS_PATH} is added)`);
  if (/[@\s\\]/.test(host)) refuse('that is not a host name');
  let url: URL | undefined;
  try {
    url = new URL(`https://${host}`);
  } catch {
    refuse('that is not a host name');
  }
  const name = url?.hostname.replace(/\.$/, '') ?? '';
  const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
  if (url === undefined || name === '' || !name.split('.').every((part) => label.test(part)))
    return refuse('that is not a host name');
  // The ASCII form (an IDN host becomes xn--…), as Slack stores request URLs.
  return url.host;
}

/** What `regdesk manifest` prints: for a public host, for Socket Mode, or `manifest.yml` unchanged. */
export type ManifestTarget = { host?: string; socketMode?: boolean };

/**
 * `manifest.yml` made ready for one deployment (README "Create the Slack app"):
 * - `host`: every request URL (each slash command's `url`, the Events API and interactivity request
 *   URLs) is `https://HOST/slack/events`, and OAuth redirect URLs are `https://HOST/slack/oauth_redirect`;
 *   Socket Mode is off.
 * - `socketMode`: Socket Mode on and every request URL removed: Slack delivers commands, events and
 *   interactions over the app's WebSocket instead. The OAuth redirect URLs go too: Regdesk's Socket
 *   Mode serves one workspace (`SLACK_APP_TOKEN` with `SLACK_BOT_TOKEN`), nothing answers
 *   `/slack/oauth_redirect` there (src/config.ts `slackMode`).
 */
export function renderAppManifest(manifest: SlackAppManifest, target: ManifestTarget = {}): SlackAppManifest {
  if (target.host !== undefined && target.socketMode === true)
    throw new AppError('regdesk_manifest_host', '--host and --socket-mode exclude each other.');
  const out = structuredClone(manifest);
  const commands = out.features?.slash_commands ?? [];
  const events = out.settings?.event_subscriptions;
  const interactivity = out.settings?.interactivity;
  if (target.socketMode === true) {
    for (const command of commands) delete command.url;
    if (events !== undefined) delete events.request_url;
    if (interactivity !== undefined) delete interactivity.request_url;
    if (out.oauth_config !== undefined) delete out.oauth_config.redirect_urls;
    out.settings = { ...out.settings, socket_mode_enabled: true };
    return out;
  }
  if (target.host === undefined) return out;
  const base = `https://${publicHost(target.host)}`;
  for (const command of commands) command.url = `${base}${EVENTS_PATH}`;
  if (events !== undefined) events.request_url = `${base}${EVENTS_PATH}`;
  if (interactivity !== undefined) interactivity.request_url = `${base}${EVENTS_PATH}`;
  if (out.oauth_config?.redirect_urls !== undefined)
    out.oauth_config.redirect_urls = [`${base}${OAUTH_REDIRECT_PATH}`];
  out.settings = { ...out.settings, socket_mode_enabled: false };
  return out;
}
