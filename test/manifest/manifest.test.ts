import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BOT_SCOPES } from '../../src/slack/scopes.js';

const fixture = (path: string) => new URL(`../fixtures/manifest-schema/${path}`, import.meta.url);
const readJson = (path: string): unknown => JSON.parse(readFileSync(fixture(path), 'utf8'));

interface Manifest {
  features: { slash_commands: { command: string }[]; app_home: { home_tab_enabled: boolean } };
  oauth_config: { scopes: { bot: string[] } };
  settings: { event_subscriptions: { bot_events: string[] }; interactivity: { is_enabled: boolean } };
}

describe('manifest.yml', () => {
  let validate: ValidateFunction;
  const manifest = parse(readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8')) as Manifest;

  beforeAll(() => {
    // The upstream schema uses the non-standard keywords `regex` and `_note`.
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    ajv.addKeyword('regex');
    ajv.addKeyword('_note');
    validate = ajv.compile(readJson('schemas_manifest.schema.1.0.0.json') as object);
  });

  it("passes Slack's app manifest schema", () => {
    const ok = validate(manifest);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('the validator accepts known-good manifests and rejects the upstream invalid fixture', () => {
    for (const file of [
      'examples_deploy-heroku_manifest.json',
      'examples_deploy-aws-lambda_manifest.json',
      'tests_manifests_v1_manifest.valid.json',
    ]) {
      expect(validate(readJson(file)), file).toBe(true);
    }
    expect(validate(readJson('tests_manifests_v1_manifest.invalid.json'))).toBe(false);
  });

  it('declares every command, event and surface of the contract', () => {
    expect(manifest.features.slash_commands.map((c) => c.command).sort()).toEqual([
      '/ask',
      '/dns',
      '/domain',
      '/tls',
    ]);
    expect(manifest.settings.event_subscriptions.bot_events.sort()).toEqual([
      'app_home_opened',
      'app_mention',
      'app_uninstalled',
      'assistant_thread_context_changed',
      'assistant_thread_started',
      'message.im',
      'tokens_revoked',
    ]);
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(manifest.features.app_home.home_tab_enabled).toBe(true);
  });

  it('asks for exactly the checked-in scope allowlist', () => {
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...BOT_SCOPES].sort());
  });
});
