import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BOT_SCOPES } from '../../src/slack/scopes.js';
import { manifestValidator, schemaFixture } from './schema.js';

interface Manifest {
  features: {
    slash_commands: { command: string }[];
    app_home: { home_tab_enabled: boolean; messages_tab_enabled: boolean };
    agent_view?: { agent_description?: string; suggested_prompts?: { title: string; message: string }[] };
    assistant_view?: unknown;
  };
  oauth_config: { scopes: { bot: string[] } };
  settings: { event_subscriptions: { bot_events: string[] }; interactivity: { is_enabled: boolean } };
}

describe('manifest.yml', () => {
  let validate: ValidateFunction;
  const manifest = parse(readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8')) as Manifest;

  beforeAll(() => {
    validate = manifestValidator();
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
      expect(validate(schemaFixture(file)), file).toBe(true);
    }
    expect(validate(schemaFixture('tests_manifests_v1_manifest.invalid.json'))).toBe(false);
  });

  it('uses Slack’s agent messaging (agent_view), not the retired assistant_view', () => {
    expect(manifest.features.assistant_view).toBeUndefined();
    const agent = manifest.features.agent_view;
    expect(agent?.agent_description?.length).toBeGreaterThan(0);
    // The schema's limits for agent_view: a description of at most 300 characters, at most 4 prompts.
    expect(agent?.agent_description?.length).toBeLessThanOrEqual(300);
    expect(agent?.suggested_prompts?.length).toBeLessThanOrEqual(4);
    // The Messages tab is where the assistant lives: people must be able to write there.
    expect(manifest.features.app_home.messages_tab_enabled).toBe(true);
    // An agent_view with an unknown key fails the schema: the validator checks this section.
    expect(
      validate({ ...manifest, features: { ...manifest.features, agent_view: { ...agent, x: 1 } } }),
    ).toBe(false);
  });

  it('declares every command, event and surface of the contract', () => {
    expect(manifest.features.slash_commands.map((c) => c.command).sort()).toEqual([
      '/ask',
      '/dns',
      '/domain',
      '/tls',
    ]);
    // Agent apps get app_home_opened (tab: messages) instead of assistant_thread_started, and
    // questions as message.im; the assistant_thread_* events belong to the retired assistant_view.
    expect(manifest.settings.event_subscriptions.bot_events.sort()).toEqual([
      'app_home_opened',
      'app_mention',
      'app_uninstalled',
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
