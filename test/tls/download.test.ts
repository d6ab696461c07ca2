import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../helpers/app-harness.js';

describe('/tls download', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('uploads the PEM and the ZIP bundle into the conversation (files upload v2)', async () => {
    await h.driver.command('/tls', 'download cert-issued-recent pem', { user: 'U0001' });
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'files.completeUploadExternal'));
    const pem = [...h.slack.uploads.values()][0]?.toString('utf8') ?? '';
    expect(pem).toContain('-----BEGIN CERTIFICATE-----');
    const complete = h.slack.callsTo('files.completeUploadExternal')[0];
    expect(complete?.args.channel_id).toBe('C0001');
    expect(JSON.stringify(complete?.args.files)).toContain('Certificate cert-issued-recent (PEM)');

    await h.driver.command('/tls', 'download cert-issued-recent zip', { user: 'U0001' });
    await h.slack.waitFor(
      (calls) => calls.filter((c) => c.method === 'files.completeUploadExternal').length >= 2,
    );
    const zip = [...h.slack.uploads.values()][1] ?? Buffer.alloc(0);
    expect(zip.includes(Buffer.from('PK\u0003\u0004', 'latin1'))).toBe(true);
  });

  it('explains that a pending certificate cannot be downloaded yet', async () => {
    await h.driver.command('/tls', 'download cert-pending', { responseUrl: h.slack.responseUrl('dl') });
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url:dl'));
    expect(JSON.stringify(h.slack.callsTo('response_url:dl')[0]?.args)).toContain('not issued yet');
  });
});
