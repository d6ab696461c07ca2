import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateCard, savedOrganization } from '../../src/features/tls/blocks.js';
import { cancelOrder } from '../../src/features/tls/operations.js';
import type { TlsCertificate, TlsOrganization } from '../../src/registrar/index.js';
import { slackDate } from '../../src/slack/blocks.js';
import { addIssuedCertificate, startWorld, WORKSPACE, type World } from './world.js';

const DAY = 86_400_000;
const ORDERED = Date.UTC(2026, 2, 1, 9, 30);
const cert = (fields: Partial<TlsCertificate> & Record<string, unknown> = {}): TlsCertificate => ({
  id: 'cert-1',
  status: 'issued',
  common_name: 'www.example.com',
  dns_names: ['www.example.com'],
  ...fields,
});
const org: TlsOrganization = { id: 'org-new-7', organization: 'Gamma GmbH', status: 'active' };

describe('TLS cards show times as <!date^…> (docs/requirements.md R32)', () => {
  it('the certificate card dates the order when the registrar says when, whatever unit it uses', () => {
    for (const orderedAt of [ORDERED / 1000, ORDERED, new Date(ORDERED).toISOString()]) {
      const text = JSON.stringify(certificateCard(cert({ ordered_at: orderedAt })).blocks);
      expect(text).toContain(`Ordered ${slackDate(ORDERED)}`);
    }
    expect(JSON.stringify(certificateCard(cert()).blocks)).not.toContain('Ordered');
  });
});

describe('a saved organization always names its id', () => {
  it('new, updated, and replaced by a new one', () => {
    expect(savedOrganization(org, undefined).text).toContain('`org-new-7`');
    expect(JSON.stringify(savedOrganization(org, undefined).blocks)).toMatch(
      /Created TLS organization.*org-new-7/,
    );
    expect(savedOrganization(org, 'org-new-7').text).toContain('Updated TLS organization');
    const replaced = savedOrganization(org, 'org-old-1');
    expect(replaced.text).toContain('`org-new-7`');
    expect(replaced.text).toContain('replace `org-old-1`');
  });
});

describe('the order-cancel approval preview (a message that stays up)', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(async () => {
    await world.close();
  });

  const preview = (id: string, now: number) =>
    cancelOrder.preview(
      { workspace: WORKSPACE, registrar: world.registrar, now },
      { certificateId: id, reason: 'superseded' },
    );

  it('gives the end of the 7-day window as an absolute date, not "in 3 days"', async () => {
    addIssuedCertificate(world.sandbox, 'cert-window-open', ['open.example.com']);
    const ordered = world.sandbox.state.certificates.get('cert-window-open')?.orderedAt ?? 0;
    const { details, blocker } = await preview('cert-window-open', ordered + 4 * DAY);
    expect(blocker).toBeUndefined();
    const text = details.join('\n');
    expect(text).toContain(`until ${slackDate(ordered + 7 * DAY)}`);
    expect(text).not.toMatch(/\b(ago|in \d+ days?|another)\b/);
  });

  it('says when the window ended, as an absolute date', async () => {
    addIssuedCertificate(world.sandbox, 'cert-window-shut', ['shut.example.com']);
    const ordered = world.sandbox.state.certificates.get('cert-window-shut')?.orderedAt ?? 0;
    const { blocker } = await preview('cert-window-shut', ordered + 9 * DAY);
    expect(blocker).toBe(
      `The 7-day window for revoking the whole order ended ${slackDate(ordered + 7 * DAY)}.`,
    );
  });
});
