import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSignature } from '../../src/features/audit/webhook.js';
import { commandAnswer } from '../helpers/answers.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';

const SECRET = 'the-webhook-secret-of-this-test';

/** Contract §2 AUDIT_WEBHOOK_URL: `regdesk start` delivers what its commands audit, and stops cleanly. */
describe('audit webhook in a running Regdesk', () => {
  let h: Harness;
  const received: Array<{ raw: string; signature: string | undefined; type: string | undefined }> = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        raw: Buffer.concat(chunks).toString('utf8'),
        signature: req.headers['x-regdesk-signature'] as string | undefined,
        type: req.headers['content-type'],
      });
      res.writeHead(200).end();
    });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    h = await startHarness({ env: { AUDIT_WEBHOOK_URL: url, AUDIT_WEBHOOK_SECRET: SECRET } });
  });
  afterAll(async () => {
    await h?.stop();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('POSTs a refusal a command audited, signed, and reports the backlog on /metrics', async () => {
    const answer = await commandAnswer(h, '/domain', 'audit export', { user: 'UPLAIN' });
    expect(answer).toContain('Only workspace admins');
    await expect.poll(() => received.length, { timeout: 60_000, interval: 100 }).toBeGreaterThanOrEqual(1);
    const [first] = received;
    expect(first?.type).toBe('application/json');
    expect(first?.signature).toBe(webhookSignature(SECRET, first?.raw ?? ''));
    expect(JSON.parse(first?.raw ?? '{}')).toMatchObject({
      team: 'T0001',
      action: 'refuse',
      actor: 'UPLAIN',
      operation: 'audit.export',
      position: 1,
    });
    await expect
      .poll(async () => (await fetch(`${h.url}/metrics`)).text(), { timeout: 30_000, interval: 500 })
      .toMatch(/^regdesk_audit_outbox_backlog\{sink="webhook"\} 0$/m);
  });
});
