import { LogLevel } from '@slack/bolt';
import { SocketModeClient } from '@slack/socket-mode';
import { describe, expect, it } from 'vitest';
import { toBoltLogger } from '../../src/slack/bolt-logger.js';
import { memoryLogger } from '../helpers/app-harness.js';

const CANARY = 'rf_live_canary_9c1d2e3f4a5b6c7d';

/** A /domain key submission as Socket Mode delivers it: the API key typed into the modal inside. */
const envelope = JSON.stringify({
  envelope_id: 'env-1',
  type: 'interactive',
  accepts_response_payload: true,
  payload: {
    type: 'view_submission',
    user: { id: 'UADMIN', team_id: 'T0001' },
    view: {
      callback_id: 'keys.modal',
      state: { values: { 'keys.key': { 'keys.key.value': { value: CANARY } } } },
    },
  },
});

/** Delivers a frame as if it came over the WebSocket (the method Slack's socket calls). */
class ProbeClient extends SocketModeClient {
  deliver(frame: string): Promise<void> {
    return this.onWebSocketMessage(frame, false);
  }
}

describe('no raw Slack payload reaches the log, at any level', () => {
  it('Socket Mode at trace level: the envelope of a /domain key submission is never written', async () => {
    const { logger, logs } = memoryLogger('trace');
    const socketLogger = toBoltLogger(logger, 'socket');
    socketLogger.setLevel(LogLevel.DEBUG);
    const client = new ProbeClient({ appToken: 'xapp-1-canary', logger: socketLogger });
    client.on('interactive', async ({ ack }: { ack: (response?: unknown) => Promise<void> }) => {
      await ack({ response_action: 'errors', errors: { 'keys.key': CANARY } }).catch(() => undefined);
    });
    await client.deliver(envelope).catch(() => undefined);
    await client.deliver(`not json ${CANARY}`).catch(() => undefined);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.join('')).not.toContain(CANARY);
  });

  it('the Web API client and Bolt dumps are dropped; other SDK lines still arrive, sanitised', () => {
    const { logger, logs } = memoryLogger('trace');
    const bolt = toBoltLogger(logger);
    bolt.debug(`http request body: {"text":"${CANARY}"}`);
    bolt.debug(`http request result: {"ok":true,"text":"${CANARY}"}`);
    bolt.debug(envelope);
    bolt.warn(`[${CANARY}] {"payload":1}`.slice(CANARY.length + 2));
    bolt.info('apps.connections.open\nforged line xoxb-123-secret');
    const text = logs.join('');
    expect(text).not.toContain(CANARY);
    expect(text).toContain('apps.connections.open forged line [REDACTED]');
  });
});
