import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/features/policy/policy.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { messageText } from '../helpers/payloads.js';

/** What a compromised or confused registrar assistant might answer. */
const HOSTILE_ANSWER = {
  question: 'billing',
  answer: [
    '## Billing <!channel>',
    'Invoices: [Billing](/my/billing). Docs: [DNSSEC](https://docs.example.org/dnssec).',
    'Log in again at [Dashboard](https://dash.regfish.example.evil.example/login) or https://evil.example/reset <@U0001> <#C0001>',
  ].join('\n\n'),
  truncated: false,
  sources: [
    { title: 'Billing FAQ', url: '/my/help/billing' },
    { title: 'Urgent <!here>', url: 'https://evil.example/faq' },
  ],
  dashboard_url: 'https://dash.regfish.example',
};

/** A registrar that answers every assistant question with `HOSTILE_ANSWER`. */
async function hostileRegistrar(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const found = req.url?.startsWith('/help/search') === true;
    res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        found
          ? { success: true, code: 0, response: HOSTILE_ANSWER }
          : { success: false, message: 'Not found' },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('links and text in assistant answers', () => {
  let h: Harness;
  let registrar: { url: string; server: Server };

  beforeAll(async () => {
    registrar = await hostileRegistrar();
    h = await startHarness({ env: { REGFISH_API_URL: registrar.url } });
    await h.running.services.policies.set(
      { teamId: 'T0001' },
      { ...DEFAULT_POLICY, assistantLinkHosts: ['docs.example.org'] },
    );
  });
  afterAll(async () => {
    await h.stop();
    registrar.server.close();
  });

  it('links only to the dashboard and the policy’s hosts, and nothing in the answer mentions or pings', async () => {
    await h.driver.command('/ask', 'Where are my invoices?', { user: 'U0002', channel: 'CLINKS' });
    const answer = () =>
      h.slack
        .succeeded('chat.postMessage')
        .find((c) => c.args.channel === 'CLINKS' && String(c.args.text).startsWith('<@U0002> here is'));
    await h.slack.waitFor(() => answer() !== undefined, 15_000);
    const text = messageText(answer() ?? { method: '', args: {}, at: 0 });
    assertWithinBlockKitLimits(answer()?.args, 'message');

    expect(text).toContain('<https://dash.regfish.example/my/billing|Billing>');
    expect(text).toContain('<https://docs.example.org/dnssec|DNSSEC>');
    expect(text).toContain('<https://dash.regfish.example/my/help/billing|Billing FAQ>');
    // Other hosts keep their label only, or stay plain text (verbatim: Slack does not re-link them).
    expect(text).toContain('Log in again at Dashboard or https://evil.example/reset');
    expect(text).toContain('Urgent &lt;!here&gt;');
    expect(text).not.toMatch(/<https?:\/\/(?!dash\.regfish\.example\/|docs\.example\.org\/)/);
    expect(text).toContain('&lt;!channel&gt;');
    expect(text.replaceAll('<@U0002>', '')).not.toMatch(/<[!@#]/);
    const blocks = (answer()?.args.blocks ?? []) as { text?: { verbatim?: boolean } }[];
    const sections = blocks.slice(1);
    expect(sections.every((block) => block.text === undefined || block.text.verbatim === true)).toBe(true);
  });
});
