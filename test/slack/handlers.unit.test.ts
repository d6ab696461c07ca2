import type { App } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { FEATURES } from '../../src/features/index.js';
import { createLogger } from '../../src/shared/logger.js';
import { AckGate } from '../../src/slack/ack-gate.js';
import { CommandRouter, type Subcommand, type SubcommandContext } from '../../src/slack/router.js';

/** Records every service a handler reaches for; any use of one throws. */
function tripwire(touched: string[], path: string): unknown {
  const fn = () => undefined;
  return new Proxy(fn, {
    get: (_target, key) => (key === 'then' ? undefined : tripwire(touched, `${path}.${String(key)}`)),
    apply: () => {
      touched.push(path);
      throw new Error(`touched ${path}`);
    },
    construct: () => {
      touched.push(path);
      throw new Error(`touched ${path}`);
    },
  });
}

const touched: string[] = [];
const router = new CommandRouter(createLogger({ level: 'silent' }), new AckGate());
const config = loadConfig({
  SLACK_SIGNING_SECRET: 'x'.repeat(32),
  SLACK_BOT_TOKEN: 'xoxb-unit',
  REGFISH_SANDBOX: '1',
  REDIS_URL: 'redis://127.0.0.1:9',
  REGDESK_DATA_DIR: '/nonexistent',
});
const deps = new Proxy(
  {
    router,
    logger: createLogger({ level: 'silent' }),
    config,
    limits: config.limits,
    now: Date.now,
  } as Record<string, unknown>,
  {
    get: (known, key) =>
      typeof key === 'string' && key in known ? known[key] : tripwire(touched, String(key)),
  },
);
for (const feature of FEATURES) if ('register' in feature) feature.register({} as App, deps as never);

type Acked = { calls: unknown[]; touchedBefore: string[] };

/** A slash command's payload as Slack sends it (its `body` and its `command` are the same fields). */
function slashPayload(command: string, typed: string) {
  const payload = {
    user_id: 'U0UNIT',
    team_id: 'T0UNIT',
    channel_id: 'C0UNIT',
    trigger_id: 'trigger',
    text: typed,
    command,
  };
  return { body: payload, command: payload };
}

/** Runs one subcommand with `words`, a fake ack and respond, as the router would hand them over. */
async function run(command: string, sub: Subcommand, words: string[]): Promise<Acked & { threw?: string }> {
  touched.length = 0;
  const calls: unknown[] = [];
  let touchedBefore: string[] = [];
  const textTyped = [sub.name, ...words].join(' ');
  const ctx: SubcommandContext = {
    args: words,
    rest: words.join(' '),
    bolt: {
      ...slashPayload(command, textTyped),
      client: tripwire(touched, 'client'),
      respond: tripwire(touched, 'respond'),
    } as never,
    ack: async (response?: unknown) => {
      calls.push(response);
      touchedBefore = [...touched];
    },
    acksFirst: async () => undefined,
    respond: tripwire(touched, 'respond') as never,
    logger: createLogger({ level: 'silent' }),
  };
  try {
    await sub.run(ctx);
    return { calls, touchedBefore };
  } catch (error) {
    return { calls, touchedBefore, threw: error instanceof Error ? error.message : String(error) };
  }
}

/** Subcommands whose answer is the ack itself, read first (a role check and a read side by side). */
const ANSWER_IS_THE_ACK = new Set(['/domain audit']);

/** Words no subcommand can use: none, Slack markup, a malformed name. */
const UNUSABLE = [[], ['<!channel>'], ['bad..name']];

const COMMANDS = ['/domain', '/dns', '/tls'] as const;
const cases = COMMANDS.flatMap((command) =>
  router.registered(command).flatMap((sub) =>
    UNUSABLE.map((words) => ({
      label: `${command} ${sub.name} ${JSON.stringify(words)}`,
      command,
      sub,
      words,
    })),
  ),
);

/**
 * Handler tests without the app (bolt-ts-starter's rule): every subcommand of every feature, handed
 * words it cannot use and services that throw when used, acks exactly once and before it reaches
 * for any service; the router answers the one whose answer is a read. The whole-app tests drive the
 * same handlers over signed HTTP with real services.
 */
describe('every subcommand acks once, before any slow work', () => {
  it('finds the subcommands of every command', () => {
    for (const command of COMMANDS) expect(router.registered(command).length, command).toBeGreaterThan(3);
    expect(cases.length).toBeGreaterThan(50);
  });

  it.each(cases)('$label', async ({ command, sub, words }) => {
    const outcome = await run(command, sub, words);
    if (ANSWER_IS_THE_ACK.has(`${command} ${sub.name}`)) {
      // Its read failed (every service throws here): no half answer; the router answers instead.
      expect(outcome.calls.length).toBeLessThanOrEqual(1);
    } else {
      expect(outcome.calls).toHaveLength(1);
      expect(outcome.touchedBefore).toEqual([]);
    }
  });

  it.each(COMMANDS)(
    'through the router, %s answers every one exactly once, also when its services fail',
    async (command) => {
      for (const sub of router.registered(command)) {
        for (const words of UNUSABLE) {
          const acks: unknown[] = [];
          const typed = [sub.name, ...words].join(' ');
          await router.dispatch(command, {
            ...slashPayload(command, typed),
            client: tripwire([], 'client'),
            respond: async () => undefined,
            ack: async (response?: unknown) => {
              acks.push(response);
            },
          } as never);
          expect(acks, `${command} ${typed}`).toHaveLength(1);
        }
      }
    },
  );
});
