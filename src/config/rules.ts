import { flag } from './schema.js';

export type SlackMode = 'http-single' | 'http-oauth' | 'socket' | 'unconfigured';

/** What the combination rules decide, and what they find wrong. */
export interface Combination {
  mode: SlackMode;
  sandbox: boolean;
  playgroundRefusal: string | undefined;
  problems: string[];
}

/**
 * The rules over which variables are set together (docs/requirements.md C2, R42). They look at which
 * variables are set, so they are judged even when some value is malformed: one start-up shows every
 * problem. `sandboxFlag` is REGFISH_SANDBOX as parsed, when the whole environment parsed.
 */
export function judgeCombination(
  env: Record<string, string | undefined>,
  sandboxFlag: boolean | undefined,
): Combination {
  const problems: string[] = [];
  const given = (name: string) => (env[name] ?? '').trim() !== '';
  const oauthNames = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET'];
  // Every Slack app has a client ID and secret: beside a bot token and without a state secret they
  // only sign people in with Slack (the MCP endpoint, features/mcp), which installs nothing.
  const signInOnly =
    given('SLACK_BOT_TOKEN') &&
    given('SLACK_CLIENT_ID') &&
    given('SLACK_CLIENT_SECRET') &&
    !given('SLACK_STATE_SECRET');
  const oauthGiven = !signInOnly && oauthNames.some(given);
  const anySlack = oauthGiven || given('SLACK_BOT_TOKEN') || given('SLACK_APP_TOKEN');

  let mode: SlackMode = 'unconfigured';
  if (given('SLACK_APP_TOKEN')) mode = 'socket';
  else if (oauthGiven) mode = 'http-oauth';
  else if (given('SLACK_BOT_TOKEN')) mode = 'http-single';

  if (oauthGiven && !oauthNames.every(given)) {
    problems.push(`${oauthNames.join(', ')}: OAuth install mode needs all three`);
  }
  if (mode === 'socket' && !given('SLACK_BOT_TOKEN')) {
    problems.push('SLACK_BOT_TOKEN: required with SLACK_APP_TOKEN (Socket Mode)');
  }
  if ((mode === 'http-single' || mode === 'http-oauth') && !given('SLACK_SIGNING_SECRET')) {
    problems.push(
      'SLACK_SIGNING_SECRET: required in HTTP mode; every request from Slack is verified with it',
    );
  }

  // docs/requirements.md C2: the simulator is the default only when nothing points at Slack or a registrar.
  const sandbox = sandboxFlag ?? (!anySlack && !given('REGFISH_API_URL'));
  // The sandbox's demo key stands in for a workspace's own key: one key for everybody. That is fine
  // for a local trial, never for an app many workspaces install or a registrar on another host.
  if (sandbox && mode === 'http-oauth') {
    problems.push(
      'REGFISH_SANDBOX: not allowed with OAuth install mode (every installing workspace would share the demo key); set REGFISH_SANDBOX=0',
    );
  }
  const registrarUrl = (env.REGFISH_API_URL ?? '').trim();
  if (
    sandbox &&
    registrarUrl !== '' &&
    URL.canParse(registrarUrl) &&
    !isLoopback(new URL(registrarUrl).hostname)
  ) {
    problems.push(
      'REGFISH_SANDBOX: the sandbox must run on this machine (REGFISH_API_URL on loopback); for a registrar elsewhere set REGFISH_SANDBOX=0',
    );
  }
  // docs/requirements.md C2: one Redis topology at a time, named in one message.
  const redisModes = ['REDIS_URL', 'REDIS_CLUSTER_NODES', 'REDIS_SENTINELS'].filter(given);
  if (redisModes.length > 1) {
    problems.push(
      `${redisModes.join(', ')}: set only one (REDIS_URL for one node, REDIS_CLUSTER_NODES for Redis Cluster, REDIS_SENTINELS with REDIS_SENTINEL_MASTER for Sentinel)`,
    );
  }
  if (given('REDIS_SENTINELS') !== given('REDIS_SENTINEL_MASTER')) {
    problems.push('REDIS_SENTINELS, REDIS_SENTINEL_MASTER: Sentinel mode needs both (nodes and master name)');
  }
  // docs/requirements.md R42: the playground acts as any member, so it never meets a real registrar.
  // Read on their own, so the rule is judged even when another value is malformed.
  const playgroundFlag = flag.safeParse(env.REGDESK_PLAYGROUND).data;
  const realRegistrar = [
    ...(flag.safeParse(env.REGFISH_SANDBOX).data === false ? ['REGFISH_SANDBOX=0'] : []),
    ...(given('REGFISH_API_URL') ? ['REGFISH_API_URL'] : []),
  ];
  // With Slack settings, the registrar defaults to the real API (C2).
  if (realRegistrar.length === 0 && !sandbox) realRegistrar.push('Slack settings without REGFISH_SANDBOX=1');
  const playgroundRefusal =
    realRegistrar.length === 0 || playgroundFlag === false
      ? undefined
      : playgroundFlag === true
        ? `REGDESK_PLAYGROUND: the playground never runs against a real registrar, but ${realRegistrar.join(' and ')} select${realRegistrar.length > 1 ? '' : 's'} one; use the built-in sandbox (REGFISH_SANDBOX=1 and no REGFISH_API_URL) or unset REGDESK_PLAYGROUND`
        : mode === 'unconfigured'
          ? `REGDESK_PLAYGROUND: no Slack settings (SLACK_SIGNING_SECRET, SLACK_BOT_TOKEN, …) are set, so \`regdesk start\` would serve the local playground, which never runs against a real registrar (${realRegistrar.join(', ')}); set the Slack settings, or REGDESK_PLAYGROUND=0 to start without Slack and without the playground`
          : undefined;
  if (playgroundFlag === true && playgroundRefusal !== undefined) problems.push(playgroundRefusal);
  // Contract §2: every webhook delivery is signed; an unsigned one could be forged by anyone who can
  // reach the receiver, so the URL alone is refused.
  if (given('AUDIT_WEBHOOK_URL') && !given('AUDIT_WEBHOOK_SECRET')) {
    problems.push(
      'AUDIT_WEBHOOK_SECRET: required with AUDIT_WEBHOOK_URL; every delivery is signed with it (e.g. `openssl rand -hex 32`)',
    );
  }
  // Contract §3 "Agents (MCP)": people sign in with Slack, which needs the app's client ID and secret;
  // tokens are bearer secrets, so the endpoint is HTTPS unless it is this machine's.
  const publicUrl = (env.REGDESK_PUBLIC_URL ?? '').trim();
  if (publicUrl !== '' && !(given('SLACK_CLIENT_ID') && given('SLACK_CLIENT_SECRET'))) {
    problems.push(
      "REGDESK_PUBLIC_URL: the MCP endpoint signs people in with Slack and needs SLACK_CLIENT_ID and SLACK_CLIENT_SECRET (the app's Basic Information page)",
    );
  }
  if (URL.canParse(publicUrl)) {
    const url = new URL(publicUrl);
    if (url.protocol !== 'https:' && !isLoopback(url.hostname)) {
      problems.push(
        'REGDESK_PUBLIC_URL: must be https:// (agents send bearer tokens to it); http:// only on loopback',
      );
    }
    // The SDK's OAuth endpoints (/authorize, /token, /register) are at the origin's root (RFC 8414 §3).
    if (url.pathname !== '/' || url.search !== '' || url.hash !== '')
      problems.push(
        'REGDESK_PUBLIC_URL: an origin (https://regdesk.example.com), without a path, query or fragment',
      );
  }
  if (!sandbox && !given('VAULT_MASTER_KEY')) {
    problems.push('VAULT_MASTER_KEY: required outside sandbox mode (base64 of 32 random bytes)');
  }
  return { mode, sandbox, playgroundRefusal, problems };
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
