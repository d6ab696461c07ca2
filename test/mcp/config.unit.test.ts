import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const single = {
  SLACK_SIGNING_SECRET: 's',
  SLACK_BOT_TOKEN: 'xoxb-1',
  REGFISH_SANDBOX: '1',
  VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
};

function problemsOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
    return '';
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.join('\n');
    throw error;
  }
}

describe('the MCP endpoint’s settings (contract §2: REGDESK_PUBLIC_URL, SLACK_AUTHORIZE_URL)', () => {
  it('serves /mcp with the public URL and the app’s client ID and secret, beside a bot token too', () => {
    const config = loadConfig({
      ...single,
      SLACK_CLIENT_ID: '1.2',
      SLACK_CLIENT_SECRET: 'secret',
      REGDESK_PUBLIC_URL: 'https://regdesk.example.com/',
    });
    // Without a state secret the client credentials only sign people in: still one workspace.
    expect(config.slack.mode).toBe('http-single');
    expect(config.mcp).toEqual({
      publicUrl: 'https://regdesk.example.com',
      authorizeUrl: 'https://slack.com/openid/connect/authorize',
      clientId: '1.2',
      clientSecret: 'secret',
    });
    expect(loadConfig(single).mcp).toBeUndefined();
  });

  it('names what is missing or unsafe', () => {
    expect(problemsOf({ ...single, REGDESK_PUBLIC_URL: 'https://regdesk.example.com' })).toContain(
      'SLACK_CLIENT_ID and SLACK_CLIENT_SECRET',
    );
    const withApp = { ...single, SLACK_CLIENT_ID: '1.2', SLACK_CLIENT_SECRET: 'x' };
    expect(problemsOf({ ...withApp, REGDESK_PUBLIC_URL: 'http://regdesk.example.com' })).toContain(
      'https://',
    );
    expect(problemsOf({ ...withApp, REGDESK_PUBLIC_URL: 'http://127.0.0.1:3000' })).toBe('');
    expect(problemsOf({ ...withApp, REGDESK_PUBLIC_URL: 'https://example.com/regdesk' })).toContain('origin');
    expect(problemsOf({ ...withApp, SLACK_AUTHORIZE_URL: 'ftp://slack' })).toContain('SLACK_AUTHORIZE_URL');
  });
});
