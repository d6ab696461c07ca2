import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Running } from '../../src/main.js';
import { startPlaygroundProcess } from '../helpers/playground.js';
import { call, connect, TestAgent } from './support.js';

describe('the playground serves /mcp against its own Slack stand-in (docs/mcp.md "Try it")', () => {
  let running: Running;

  beforeAll(async () => {
    running = await startPlaygroundProcess();
  }, 60_000);
  afterAll(async () => {
    await running?.stop();
  });

  it("signs an agent in as the playground's member and answers its tools", async () => {
    const base = running.http?.url ?? '';
    const client = await connect(base, new TestAgent('Claude (playground)', 'U0LINUS'));
    const result = await call(client, 'watch_list');
    expect(result.isError).not.toBe(true);
    expect(running.playground?.slack.succeeded('openid.connect.userInfo')).toHaveLength(1);
    const entries = await running.services.audit.latest({ teamId: 'T0001' }, { limit: 5 });
    expect(entries.find((entry) => entry.operation === 'mcp.watch_list')?.actor).toBe('U0LINUS');
    await client.close();
  });
});
