import type { Config } from '../config.js';
import type { StartContext } from './context.js';

export interface StartNotes {
  /** The config as given (before the playground replaced its Slack settings). */
  given: Config;
  /** The config the process runs with. */
  config: Config;
  sandboxUrl?: string | undefined;
  playgroundUrl?: string | undefined;
}

/** The lines start-up ends with: where the registrar and playground are, or what to set next. */
export function sayNotes(ctx: StartContext, notes: StartNotes): void {
  const { role, say } = ctx;
  if (notes.sandboxUrl !== undefined && role === 'start') {
    say(
      `Registrar: built-in sandbox at ${notes.sandboxUrl} (workspaces without a key of their own use its demo key).`,
    );
  }
  if (notes.playgroundUrl !== undefined && notes.given.slack.mode !== 'unconfigured') {
    say(
      `Playground: ${notes.playgroundUrl} (REGDESK_PLAYGROUND=1: this process uses the playground's Slack, not the configured app).`,
    );
  } else if (notes.given.slack.mode === 'unconfigured' && role !== 'worker') {
    for (const line of nextSteps(notes.config, notes.playgroundUrl)) say(line);
  }
}

function nextSteps(config: Config, playgroundUrl?: string): string[] {
  const steps = [
    'Create a Slack app from `npx regdesk manifest --host YOUR.HOST` (README: "Create the Slack app").',
    'Set SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN (HTTP mode; add SLACK_APP_TOKEN for Socket Mode),\n' +
      '     or SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET to install into many workspaces.',
    `Registrar: ${config.registrar.sandbox ? 'using the built-in sandbox' : config.registrar.apiUrl}. ` +
      'For the real API set REGFISH_SANDBOX=0 and VAULT_MASTER_KEY, then add each workspace key with `/domain key`.',
  ];
  if (playgroundUrl !== undefined) {
    steps.unshift(`Try it now: open ${playgroundUrl} (a simulated Slack workspace; this machine only).`);
  }
  return [
    '',
    'No Slack app is configured yet. Next steps:',
    ...steps.flatMap((text, i) => `  ${i + 1}. ${text}`.split('\n')),
    '',
  ];
}
