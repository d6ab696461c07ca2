import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAppManifest, publicHost, renderAppManifest, type SlackAppManifest } from '../../src/manifest.js';
import { manifestValidator } from './schema.js';

// `npm test` builds first: the CLI is run as an operator runs it.
const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));

function regdesk(...args: string[]) {
  const run = spawnSync(process.execPath, [CLI, 'manifest', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Every URL anywhere in the manifest, by where it is. */
function urlsOf(manifest: SlackAppManifest): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'string' && /^https?:\/\//.test(value)) found[path] = value;
    else if (Array.isArray(value)) for (const [i, item] of value.entries()) walk(item, `${path}[${i}]`);
    else if (typeof value === 'object' && value !== null)
      for (const [key, item] of Object.entries(value)) walk(item, path === '' ? key : `${path}.${key}`);
  };
  walk(manifest, '');
  return found;
}

/** The manifest without what `--host` / `--socket-mode` may change: the rest must stay manifest.yml. */
function withoutTargetSettings(manifest: SlackAppManifest): unknown {
  const copy = structuredClone(manifest);
  for (const command of copy.features?.slash_commands ?? []) delete command.url;
  delete copy.settings?.event_subscriptions?.request_url;
  delete copy.settings?.interactivity?.request_url;
  delete copy.oauth_config?.redirect_urls;
  delete copy.settings?.socket_mode_enabled;
  return copy;
}

describe('regdesk manifest', () => {
  let validate: ValidateFunction;
  const source = loadAppManifest();
  const expectValid = (manifest: unknown) => {
    const ok = validate(manifest);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  };

  beforeAll(() => {
    validate = manifestValidator();
  });

  it('reads manifest.yml with a YAML library: the commands, the shortcut, agent_view and the events', () => {
    expect(source.features?.slash_commands?.map((c) => c.command)).toEqual([
      '/domain',
      '/dns',
      '/tls',
      '/ask',
    ]);
    expect(source.features?.shortcuts?.map((s) => s.callback_id)).toEqual(['assistant.ask_about_message']);
    expect(source.features).toHaveProperty('agent_view.agent_description');
    expect(source.settings?.event_subscriptions?.bot_events).toContain('app_home_opened');
  });

  it('with no option: manifest.yml as JSON, valid against Slack’s schema', () => {
    const manifest = renderAppManifest(source);
    expectValid(manifest);
    expect(manifest).toEqual(source);
  });

  it('--host: every request URL on https://HOST/slack/events, the OAuth redirect on /slack/oauth_redirect', () => {
    const manifest = renderAppManifest(source, { host: 'regdesk.acme.test' });
    expectValid(manifest);
    const urls = urlsOf(manifest);
    expect(urls).toEqual({
      'features.slash_commands[0].url': 'https://regdesk.acme.test/slack/events',
      'features.slash_commands[1].url': 'https://regdesk.acme.test/slack/events',
      'features.slash_commands[2].url': 'https://regdesk.acme.test/slack/events',
      'features.slash_commands[3].url': 'https://regdesk.acme.test/slack/events',
      'oauth_config.redirect_urls[0]': 'https://regdesk.acme.test/slack/oauth_redirect',
      'settings.event_subscriptions.request_url': 'https://regdesk.acme.test/slack/events',
      'settings.interactivity.request_url': 'https://regdesk.acme.test/slack/events',
    });
    expect(manifest.settings?.socket_mode_enabled).toBe(false);
    expect(withoutTargetSettings(manifest)).toEqual(withoutTargetSettings(source));
    // A port is part of the host; an IDN host is given in its ASCII form.
    expect(
      urlsOf(renderAppManifest(source, { host: 'regdesk.acme.test:8443' }))[
        'settings.interactivity.request_url'
      ],
    ).toBe('https://regdesk.acme.test:8443/slack/events');
    expect(publicHost('bücher.example')).toBe('xn--bcher-kva.example');
  });

  it('--socket-mode: Socket Mode on, no request URLs at all', () => {
    const manifest = renderAppManifest(source, { socketMode: true });
    expectValid(manifest);
    expect(urlsOf(manifest)).toEqual({});
    expect(manifest.settings?.socket_mode_enabled).toBe(true);
    expect(manifest.settings?.interactivity?.is_enabled).toBe(true);
    expect(manifest.settings?.event_subscriptions?.bot_events).toEqual(
      source.settings?.event_subscriptions?.bot_events,
    );
    expect(withoutTargetSettings(manifest)).toEqual(withoutTargetSettings(source));
  });

  it('refuses a host with a scheme, a path or anything else that is not a host, saying what to give', () => {
    const cases: Array<[string, RegExp]> = [
      ['https://regdesk.acme.test', /leave out the scheme/],
      ['http://regdesk.acme.test', /leave out the scheme/],
      ['regdesk.acme.test/slack/events', /leave out the path/],
      ['regdesk.acme.test/', /leave out the path/],
      ['regdesk.acme.test?x=1', /leave out the path/],
      ['', /empty/],
      ['admin@regdesk.acme.test', /not a host name/],
      ['regdesk acme.test', /not a host name/],
      ['regdesk..acme.test', /not a host name/],
      ['-regdesk.acme.test', /not a host name/],
      ['regdesk_acme.test', /not a host name/],
      ['regdesk.acme.test:99999', /not a host name/],
    ];
    for (const [host, why] of cases) {
      expect(() => renderAppManifest(source, { host }), host).toThrow(why);
      expect(() => publicHost(host), host).toThrow(
        /Give the public host alone, e\.g\. --host regdesk\.example\.com/,
      );
    }
    expect(() => renderAppManifest(source, { host: 'regdesk.acme.test', socketMode: true })).toThrow(
      /exclude/,
    );
  });

  it('prints the JSON on stdout for an operator to paste into "From an app manifest"', () => {
    const hosted = regdesk('--host', 'regdesk.acme.test');
    expect(hosted.stderr).toBe('');
    expect(hosted.code).toBe(0);
    const manifest = JSON.parse(hosted.stdout) as SlackAppManifest;
    expectValid(manifest);
    expect(manifest).toEqual(renderAppManifest(source, { host: 'regdesk.acme.test' }));

    const socket = regdesk('--socket-mode');
    expect(socket.code).toBe(0);
    expectValid(JSON.parse(socket.stdout));
    expect(urlsOf(JSON.parse(socket.stdout) as SlackAppManifest)).toEqual({});

    const plain = regdesk();
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.stdout)).toEqual(source);
    expect(plain.stderr).toContain('regdesk.example.com');
  });

  it('exits 1 with one clear line and prints no manifest for a bad host or both options', () => {
    const bad = regdesk('--host', 'https://regdesk.acme.test/slack/events');
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('leave out the scheme (https:// is added)');

    const both = regdesk('--host', 'regdesk.acme.test', '--socket-mode');
    expect(both.code).not.toBe(0);
    expect(both.stdout).toBe('');
    expect(both.stderr).toMatch(/--socket-mode.*cannot be used with.*--host/);
  });
});
