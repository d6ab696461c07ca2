import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/slack/bolt-core.js';

const require = createRequire(import.meta.url);
const socketModeLoaded = () =>
  Object.keys(require.cache).some((path) => path.includes('/@slack/socket-mode/'));

// Each test file runs in a process of its own (vitest forks), so the module cache is this file's.
describe("Bolt's Socket Mode, loaded only where it is used", () => {
  it('is not loaded with the app, and an app in Socket Mode still gets the real receiver', async () => {
    expect(new App({ token: 'xoxb-http', signingSecret: 'secret' })).toBeDefined();
    expect(socketModeLoaded()).toBe(false);

    const app = new App({
      socketMode: true,
      appToken: 'xapp-test',
      authorize: async () => ({ botToken: 'xoxb-socket' }),
    });
    expect(socketModeLoaded()).toBe(true);
    const real = (
      require('@slack/bolt/dist/receivers/SocketModeReceiver.js') as {
        default: new (...args: never[]) => { client: { start(): unknown } };
      }
    ).default;
    const receiver = (app as unknown as { receiver: unknown }).receiver;
    expect(receiver).toBeInstanceOf(real);
    expect(typeof (receiver as InstanceType<typeof real>).client.start).toBe('function');
  });
});
