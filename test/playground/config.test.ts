import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { runRegdesk } from '../../src/main.js';
import { memoryLogger } from '../helpers/app-harness.js';

// docs/requirements.md R42: the playground never runs against a real registrar.
const masterKey = randomBytes(32).toString('base64');
const slack = { SLACK_SIGNING_SECRET: 's', SLACK_BOT_TOKEN: 'xoxb-1', VAULT_MASTER_KEY: masterKey };

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

const playgroundProblem = (env: Record<string, string>) =>
  problemsOf(env).find((problem) => problem.startsWith('REGDESK_PLAYGROUND:'));

describe('the playground and the registrar', () => {
  it('is on by default with no Slack settings, asked for with REGDESK_PLAYGROUND=1, off otherwise', () => {
    expect(loadConfig({}).playground).toBe('no-slack');
    expect(loadConfig({ ...slack, REGFISH_SANDBOX: '1', REGDESK_PLAYGROUND: '1' }).playground).toBe(
      'requested',
    );
    expect(loadConfig(slack).playground).toBe(false);
    expect(loadConfig({ REGDESK_PLAYGROUND: '0' }).playground).toBe(false);
  });

  it('refuses REGDESK_PLAYGROUND=1 with REGFISH_SANDBOX=0 or REGFISH_API_URL, naming both sides', () => {
    const sandboxOff = playgroundProblem({
      REGDESK_PLAYGROUND: '1',
      REGFISH_SANDBOX: '0',
      VAULT_MASTER_KEY: masterKey,
    });
    expect(sandboxOff).toContain('REGFISH_SANDBOX=0');
    expect(sandboxOff).toContain('never runs against a real registrar');
    expect(
      playgroundProblem({ REGDESK_PLAYGROUND: '1', REGFISH_API_URL: 'https://api.regfish.com' }),
    ).toContain('REGFISH_API_URL');
    // Even a registrar on this machine: the playground runs only with the sandbox it embeds.
    expect(
      playgroundProblem({
        REGDESK_PLAYGROUND: '1',
        REGFISH_SANDBOX: '1',
        REGFISH_API_URL: 'http://127.0.0.1:4010',
      }),
    ).toContain('REGFISH_API_URL');
    // With Slack settings the registrar defaults to the real API.
    expect(playgroundProblem({ ...slack, REGDESK_PLAYGROUND: '1' })).toContain(
      'Slack settings without REGFISH_SANDBOX=1',
    );
    // Judged even when another value is malformed: one start-up shows every problem.
    const text = problemsOf({ PORT: 'x', REGDESK_PLAYGROUND: '1', REGFISH_SANDBOX: '0' }).join('\n');
    expect(text).toContain('PORT');
    expect(text).toContain('REGDESK_PLAYGROUND');
  });

  it('with no Slack settings and a real registrar, `regdesk start` refuses, saying Slack settings are missing', async () => {
    const env = { REGFISH_SANDBOX: '0', VAULT_MASTER_KEY: masterKey };
    // The other commands (vault, web, worker) need no Slack settings: the configuration loads.
    const config = loadConfig(env);
    expect(config.playground).toBe(false);
    expect(config.playgroundRefusal).toContain('REGDESK_PLAYGROUND');
    expect(config.playgroundRefusal).toContain('no Slack settings');
    expect(config.playgroundRefusal).toContain('REGFISH_SANDBOX=0');
    expect(
      loadConfig({ REGFISH_API_URL: 'https://api.regfish.com', VAULT_MASTER_KEY: masterKey })
        .playgroundRefusal,
    ).toContain('REGFISH_API_URL');
    // Refused before anything starts (no Redis is asked for).
    const started = runRegdesk({
      role: 'start',
      config,
      logger: memoryLogger('warn').logger,
      env,
      say: () => {},
    });
    await expect(started).rejects.toBeInstanceOf(ConfigError);
    await expect(started).rejects.toThrow(/REGDESK_PLAYGROUND: no Slack settings/);
    // REGDESK_PLAYGROUND=0 says it is meant: no Slack, no playground, the real registrar.
    expect(loadConfig({ ...env, REGDESK_PLAYGROUND: '0' }).playgroundRefusal).toBeUndefined();
    expect(loadConfig({ ...slack, REGFISH_SANDBOX: '0' }).playgroundRefusal).toBeUndefined();
  });
});
