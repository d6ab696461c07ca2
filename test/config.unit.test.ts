import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, DEFAULT_LIMITS, loadConfig } from '../src/config.js';

const masterKey = randomBytes(32).toString('base64');

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('with no settings runs the sandbox with Slack unconfigured on port 3000', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.slack.mode).toBe('unconfigured');
    expect(config.registrar).toMatchObject({ sandbox: true, kind: 'embedded-sandbox' });
    expect(config.limits).toEqual(DEFAULT_LIMITS);
    expect(config.logLevel).toBe('info');
  });

  it('names VAULT_MASTER_KEY when it is not base64 of 32 bytes, without echoing it', () => {
    const problems = problemsOf({ VAULT_MASTER_KEY: 'not-base64', REGFISH_SANDBOX: '0' });
    expect(problems.join('\n')).toContain('VAULT_MASTER_KEY');
    expect(problems.join('\n')).not.toContain('not-base64');
    expect(
      problemsOf({ VAULT_MASTER_KEY: randomBytes(16).toString('base64'), REGFISH_SANDBOX: '0' }),
    ).toHaveLength(1);
  });

  it('names every bad variable in one error', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      SLACK_BOT_TOKEN: 'xoxp-user-token',
      REDIS_URL: 'http://not-redis',
      LOG_LEVEL: 'loud',
      REGFISH_LIMITS: '{"availability":{"max":-1}}',
    });
    const text = problems.join('\n');
    for (const name of ['PORT', 'SLACK_BOT_TOKEN', 'REDIS_URL', 'LOG_LEVEL', 'REGFISH_LIMITS']) {
      expect(text).toContain(name);
    }
    expect(text).not.toContain('xoxp-user-token');
  });

  it('names a malformed value and a missing companion variable together', () => {
    const text = problemsOf({ PORT: 'abc', SLACK_BOT_TOKEN: 'xoxb-1' }).join('\n');
    expect(text).toContain('PORT');
    expect(text).toContain('SLACK_SIGNING_SECRET');
    expect(text).toContain('VAULT_MASTER_KEY');
  });

  it('requires the signing secret in HTTP mode and the master key outside the sandbox', () => {
    const text = problemsOf({ SLACK_BOT_TOKEN: 'xoxb-1' }).join('\n');
    expect(text).toContain('SLACK_SIGNING_SECRET');
    expect(text).toContain('VAULT_MASTER_KEY');
  });

  it('refuses the sandbox with OAuth install mode or a registrar on another host', () => {
    const oauth = {
      SLACK_CLIENT_ID: 'c',
      SLACK_CLIENT_SECRET: 'x',
      SLACK_STATE_SECRET: 'y',
      SLACK_SIGNING_SECRET: 's',
    };
    expect(problemsOf({ ...oauth, REGFISH_SANDBOX: '1' }).join('\n')).toContain('OAuth install mode');
    expect(
      problemsOf({ REGFISH_SANDBOX: '1', REGFISH_API_URL: 'https://api.regfish.com' }).join('\n'),
    ).toContain('must run on this machine');
    expect(
      loadConfig({ REGFISH_SANDBOX: '1', REGFISH_API_URL: 'http://localhost:4010' }).registrar.sandbox,
    ).toBe(true);
  });

  it('requires all three OAuth settings together', () => {
    const text = problemsOf({ SLACK_CLIENT_ID: '1.2', SLACK_SIGNING_SECRET: 's', REGFISH_SANDBOX: '1' }).join(
      '\n',
    );
    expect(text).toContain('SLACK_CLIENT_SECRET');
  });

  it('picks Slack modes from the settings given', () => {
    const base = { SLACK_SIGNING_SECRET: 's', VAULT_MASTER_KEY: masterKey };
    expect(loadConfig({ ...base, SLACK_BOT_TOKEN: 'xoxb-1' }).slack.mode).toBe('http-single');
    expect(loadConfig({ ...base, SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' }).slack.mode).toBe(
      'socket',
    );
    const oauth = loadConfig({
      ...base,
      SLACK_CLIENT_ID: 'c',
      SLACK_CLIENT_SECRET: 'x',
      SLACK_STATE_SECRET: 'y',
    });
    expect(oauth.slack.mode).toBe('http-oauth');
    expect(oauth.registrar).toMatchObject({ sandbox: false, apiUrl: 'https://api.regfish.com' });
  });

  it('uses a remote sandbox when REGFISH_SANDBOX=1 names a URL, and adds a slash to SLACK_API_URL', () => {
    const config = loadConfig({
      REGFISH_SANDBOX: '1',
      REGFISH_API_URL: 'http://127.0.0.1:4010/',
      SLACK_API_URL: 'http://127.0.0.1:9/api',
      SLACK_SIGNING_SECRET: 's',
      SLACK_BOT_TOKEN: 'xoxb-1',
    });
    expect(config.registrar).toMatchObject({
      kind: 'remote',
      sandbox: true,
      apiUrl: 'http://127.0.0.1:4010',
    });
    expect(config.slack.apiUrl).toBe('http://127.0.0.1:9/api/');
  });

  it('merges REGFISH_LIMITS over the documented limits', () => {
    const config = loadConfig({ REGFISH_LIMITS: '{"availability":{"max":5,"windowMs":1000}}' });
    expect(config.limits.availability).toEqual({ max: 5, windowMs: 1000 });
    expect(config.limits.assistantKey).toEqual(DEFAULT_LIMITS.assistantKey);
    expect(problemsOf({ REGFISH_LIMITS: 'not json' }).join()).toContain('REGFISH_LIMITS');
    expect(problemsOf({ REGFISH_LIMITS: '{"unknown":{"max":1,"windowMs":1}}' }).join()).toContain(
      'REGFISH_LIMITS',
    );
  });

  it('keeps audit entries AUDIT_RETENTION_DAYS days, 400 by default, 1 to 36500', () => {
    expect(loadConfig({}).audit).toEqual({ retentionDays: 400 });
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '1' }).audit.retentionDays).toBe(1);
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '36500' }).audit.retentionDays).toBe(36_500);
    for (const bad of ['0', '36501', '1.5', 'a year'])
      expect(problemsOf({ AUDIT_RETENTION_DAYS: bad }).join('\n'), bad).toContain('AUDIT_RETENTION_DAYS');
  });

  it('takes an audit webhook only with its signing secret, named when missing, never echoed', () => {
    const url = 'https://siem.example.com/regdesk?token=abc';
    const secret = 'a-secret-of-32-characters-or-so!';
    expect(loadConfig({ AUDIT_WEBHOOK_URL: url, AUDIT_WEBHOOK_SECRET: secret }).audit.webhook).toEqual({
      url,
      secret,
    });
    const missing = problemsOf({ AUDIT_WEBHOOK_URL: url }).join('\n');
    expect(missing).toContain('AUDIT_WEBHOOK_SECRET: required with AUDIT_WEBHOOK_URL');
    const short = problemsOf({ AUDIT_WEBHOOK_URL: url, AUDIT_WEBHOOK_SECRET: 'short' }).join('\n');
    expect(short).toContain('AUDIT_WEBHOOK_SECRET');
    expect(short).not.toContain('short');
    expect(
      problemsOf({ AUDIT_WEBHOOK_URL: 'ftp://siem.example.com', AUDIT_WEBHOOK_SECRET: secret }).join(),
    ).toContain('AUDIT_WEBHOOK_URL');
  });

  it('reads AUDIT_SYSLOG as udp:// or tcp:// host and port, and names it when it is anything else', () => {
    expect(loadConfig({ AUDIT_SYSLOG: 'udp://127.0.0.1:514' }).audit.syslog).toEqual({
      transport: 'udp',
      host: '127.0.0.1',
      port: 514,
    });
    expect(loadConfig({ AUDIT_SYSLOG: 'tcp://logs.example.com:6514' }).audit.syslog).toEqual({
      transport: 'tcp',
      host: 'logs.example.com',
      port: 6514,
    });
    expect(loadConfig({ AUDIT_SYSLOG: 'tcp://[::1]:514' }).audit.syslog?.host).toBe('::1');
    for (const bad of [
      'logs.example.com:514',
      'udp://logs.example.com',
      'http://logs.example.com:514',
      'tcp://logs:0',
      'tcp://logs:70000',
      'udp://user@logs:514',
    ])
      expect(problemsOf({ AUDIT_SYSLOG: bad }).join('\n'), bad).toContain(
        'AUDIT_SYSLOG: must be udp://host:port or tcp://host:port',
      );
  });

  it('regdesk.env.example lists every variable, and loads as it ships (empty means default)', () => {
    const example = readFileSync(new URL('../regdesk.env.example', import.meta.url), 'utf8');
    const env = Object.fromEntries(
      example
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    for (const name of CONFIG_VARIABLES) expect(example, name).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
    const config = loadConfig(env);
    expect(config.port).toBe(3000);
    expect(config.registrar.sandbox).toBe(true);
  });
});
