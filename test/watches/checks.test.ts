import { describe, expect, it } from 'vitest';
import { digestMessage, homeSection, listMessage, settingsModal } from '../../src/features/watches/blocks.js';
import {
  certificateExpiry,
  crossedThreshold,
  DOMAIN_THRESHOLDS,
  lookAtCertificate,
  lookAtDomain,
} from '../../src/features/watches/checks.js';
import type { WatchedEntry } from '../../src/features/watches/service.js';
import type { WatchItem } from '../../src/features/watches/store.js';
import type { DnssecState, Domain, TlsCertificate } from '../../src/registrar/index.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { DAY } from './support.js';

const NOW = Date.parse('2026-11-23T09:00:00Z');
const item = (kind: WatchItem['kind'], id: string): WatchItem => ({
  kind,
  id,
  channel: 'C1',
  addedBy: 'U1',
  addedAt: NOW - DAY,
});
const domain = (fields: Partial<Domain> = {}): Domain => ({
  domain: 'example.com',
  nameservers: ['ns1.regfish.de', 'ns2.regfish.net'],
  expires_at: NOW + 100 * DAY,
  auto_renew: true,
  ...fields,
});
const dnssec = (fields: Partial<DnssecState> = {}): DnssecState => ({
  dnssec_state: 'inactive',
  desired_state: 'disabled',
  live_state: 'disabled',
  desired_records: [],
  live_records: [],
  ...fields,
});
const cert = (fields: Record<string, unknown> = {}): TlsCertificate =>
  ({
    id: 'c1',
    status: 'issued',
    common_name: 'www.example.com',
    dns_names: [],
    ...fields,
  }) as TlsCertificate;
const fresh = { failures: 0 };

describe('thresholds', () => {
  it('names the tightest threshold crossed, "expired" at or past the date, none far ahead', () => {
    expect(crossedThreshold(DOMAIN_THRESHOLDS, NOW + 61 * DAY, NOW)).toBeUndefined();
    expect(crossedThreshold(DOMAIN_THRESHOLDS, NOW + 60 * DAY, NOW)).toBe(60);
    expect(crossedThreshold(DOMAIN_THRESHOLDS, NOW + 12 * DAY, NOW)).toBe(14);
    expect(crossedThreshold(DOMAIN_THRESHOLDS, NOW + 0.5 * DAY, NOW)).toBe(1);
    expect(crossedThreshold(DOMAIN_THRESHOLDS, NOW, NOW)).toBe(0);
    expect(crossedThreshold(DOMAIN_THRESHOLDS, NOW - DAY, NOW)).toBe(0);
  });

  it('a domain: loud when auto-renew is off or it is cancelled, calm otherwise; marks carry the date', () => {
    const calm = lookAtDomain(
      item('domain', 'example.com'),
      fresh,
      domain({ expires_at: NOW + 20 * DAY }),
      dnssec(),
      NOW,
    );
    expect(calm.alerts).toHaveLength(1);
    expect(calm.alerts[0]).toMatchObject({ level: 'warn', mark: expect.stringContaining(':expiry:30:') });
    const off = lookAtDomain(
      item('domain', 'example.com'),
      fresh,
      domain({ expires_at: NOW + 20 * DAY, auto_renew: false }),
      dnssec(),
      NOW,
    );
    expect(off.alerts[0]?.level).toBe('loud');
    const cancelled = lookAtDomain(
      item('domain', 'example.com'),
      fresh,
      domain({ cancelled: true, expires_at: NOW + 5 * DAY }),
      dnssec(),
      NOW,
    );
    expect(cancelled.alerts[0]?.text).toContain('*cancelled*');
    const renewed = lookAtDomain(
      item('domain', 'example.com'),
      fresh,
      domain({ expires_at: NOW + 20 * DAY + 365 * DAY }),
      dnssec(),
      NOW,
    );
    expect(renewed.alerts).toHaveLength(0);
  });

  it('delegation changes are noticed only against an earlier look, and recorded for the digest', () => {
    const first = lookAtDomain(item('domain', 'example.com'), fresh, domain(), dnssec(), NOW);
    expect(first.alerts).toHaveLength(0);
    const moved = lookAtDomain(
      item('domain', 'example.com'),
      first.state,
      domain({ nameservers: ['NS1.Other.net.'] }),
      dnssec(),
      NOW + DAY,
    );
    expect(moved.alerts.map((a) => a.text).join()).toContain('`ns1.other.net`');
    expect(moved.changes).toHaveLength(1);
    // The same delegation in another letter case or with the root dot is no change.
    const same = lookAtDomain(
      item('domain', 'example.com'),
      first.state,
      domain({ nameservers: ['NS2.regfish.net.', 'ns1.regfish.de'] }),
      dnssec(),
      NOW + DAY,
    );
    expect(same.alerts).toHaveLength(0);
  });

  it('DNSSEC: drift when settled and different; a pending transition only after a day', () => {
    const pending = dnssec({ dnssec_state: 'pending', desired_state: 'enabled', pending_job: { id: 'j' } });
    const first = lookAtDomain(item('domain', 'example.com'), fresh, domain(), pending, NOW);
    expect(first.alerts).toHaveLength(0);
    const hourLater = lookAtDomain(
      item('domain', 'example.com'),
      first.state,
      domain(),
      pending,
      NOW + 3_600_000,
    );
    expect(hourLater.alerts).toHaveLength(0);
    const dayLater = lookAtDomain(
      item('domain', 'example.com'),
      hourLater.state,
      domain(),
      pending,
      NOW + DAY + 1,
    );
    expect(dayLater.alerts[0]?.mark).toContain(`dnssec-stuck:${NOW}`);
    const drift = lookAtDomain(
      item('domain', 'example.com'),
      fresh,
      domain(),
      dnssec({ desired_state: 'enabled' }),
      NOW,
    );
    expect(drift.alerts[0]).toMatchObject({ buttons: ['verify', 'show'] });
  });
});

describe('certificates', () => {
  it('expiry: an explicit end date first, else order date + purchased days, else unknown', () => {
    expect(certificateExpiry(cert({ expires_at: '2027-01-01T00:00:00Z' }))).toBe(
      Date.parse('2027-01-01T00:00:00Z'),
    );
    expect(certificateExpiry(cert({ ordered_at: NOW / 1000, validity_days: 90 }))).toBe(NOW + 90 * DAY);
    expect(certificateExpiry(cert({ validity_days: 90 }))).toBeUndefined();
  });

  it('revoked, stuck pending (DV after 2 days, OV after 7) and near expiry are raised with their buttons', () => {
    const revoked = lookAtCertificate(
      item('certificate', 'c1'),
      fresh,
      cert({ status: 'certificate-revoked' }),
      NOW,
    );
    expect(revoked.alerts[0]?.buttons).toEqual(['reissue', 'show']);
    const dv = cert({ status: 'pending', product: 'RapidSSL', ordered_at: (NOW - 3 * DAY) / 1000 });
    expect(lookAtCertificate(item('certificate', 'c1'), fresh, dv, NOW).alerts).toHaveLength(1);
    const ov = cert({ status: 'pending', product: 'SecureSite', ordered_at: (NOW - 3 * DAY) / 1000 });
    expect(lookAtCertificate(item('certificate', 'c1'), fresh, ov, NOW).alerts).toHaveLength(0);
    const ending = cert({ ordered_at: (NOW - 80 * DAY) / 1000, validity_days: 90 });
    const look = lookAtCertificate(item('certificate', 'c1'), fresh, ending, NOW);
    expect(look.alerts[0]).toMatchObject({
      buttons: ['renew', 'show'],
      mark: expect.stringContaining(':expiry:14:'),
    });
  });

  it('a renewal ordered holds back the expiry alert and is kept in the state; expired is raised anyway', () => {
    const ending = cert({ ordered_at: (NOW - 80 * DAY) / 1000, validity_days: 90 });
    const renewal = { id: 'c2', placedAt: NOW - DAY, status: 'pending' };
    const held = lookAtCertificate(item('certificate', 'c1'), fresh, ending, NOW, renewal);
    expect(held.alerts).toEqual([]);
    expect(held.state.renewal).toEqual(renewal);
    expect(held.changes[0]?.text).toContain('renewal `c2`');
    // The renewal is gone at the next look: the threshold's alert comes, and the change is noted.
    const resumed = lookAtCertificate(item('certificate', 'c1'), held.state, ending, NOW);
    expect(resumed.alerts[0]?.mark).toContain(':expiry:14:');
    expect(resumed.alerts[0]?.text).toContain('no renewal is ordered');
    expect(resumed.state.renewal).toBeUndefined();
    expect(resumed.changes[0]?.text).toContain('no longer counts');
    // Far from its end a renewal is not remembered (nothing to hold back).
    const far = cert({ ordered_at: NOW / 1000, validity_days: 90 });
    expect(
      lookAtCertificate(item('certificate', 'c1'), fresh, far, NOW, renewal).state.renewal,
    ).toBeUndefined();
    // Past its end the certificate is raised, naming the renewal to install.
    const expired = cert({ ordered_at: (NOW - 91 * DAY) / 1000, validity_days: 90 });
    const late = lookAtCertificate(item('certificate', 'c1'), fresh, expired, NOW, renewal);
    expect(late.alerts[0]?.mark).toContain(':expiry:0:');
    expect(late.alerts[0]?.text).toContain('Renewal `c2`');
  });
});

describe('registrar text is inert in alerts', () => {
  it('names, states and statuses from the registrar cannot mention anyone', () => {
    const evil = '<!channel> <@U1|boss> <https://evil.example|click>';
    const domainLook = lookAtDomain(
      item('domain', 'example.com'),
      {
        failures: 0,
        checkedAt: NOW - DAY,
        nameservers: ['ns1.regfish.de'],
        dnssec: { desired: 'x', live: 'y', pending: false },
      },
      domain({ nameservers: [evil], expires_at: NOW + DAY }),
      dnssec({ desired_state: evil, live_state: 'disabled' }),
      NOW,
    );
    const certLook = lookAtCertificate(
      item('certificate', 'c1'),
      { failures: 0, status: evil },
      cert({ status: 'revoked', common_name: evil }),
      NOW,
    );
    const texts = [...domainLook.alerts, ...certLook.alerts].map((a) => a.text).join('\n');
    expect(domainLook.alerts.length + certLook.alerts.length).toBeGreaterThanOrEqual(4);
    expect(texts).not.toMatch(/<!(?!date\^)|<[@#]|<https?:/);
    expect([...domainLook.changes, ...certLook.changes].map((c) => c.text).join()).not.toMatch(
      /<!(?!date\^)|<[@#]|<https?:/,
    );
  });
});

describe('Block Kit limits with a full watch list', () => {
  const entries: WatchedEntry[] = Array.from({ length: 500 }, (_, i) => ({
    item: item(i % 2 === 0 ? 'domain' : 'certificate', `${'x'.repeat(60)}-${i}.com`),
    state: {
      failures: i % 7 === 0 ? 3 : 0,
      checkedAt: NOW,
      expiresAt: NOW + i * DAY,
      label: 'ä'.repeat(80),
      autoRenew: false,
    },
  }));
  it('list, digest, App Home section and settings modal stay within the limits', () => {
    assertWithinBlockKitLimits(listMessage(entries, 500, NOW), 'message');
    const changes = Array.from({ length: 200 }, (_, i) => ({
      at: NOW - i,
      text: `change ${'y'.repeat(200)} ${i}`,
    }));
    const digest = digestMessage(entries.slice(0, 60), changes, entries.slice(0, 100), 500, NOW);
    assertWithinBlockKitLimits(digest, 'message');
    assertWithinBlockKitLimits(
      { type: 'home', blocks: homeSection(entries, undefined, undefined, NOW) },
      'home',
    );
    assertWithinBlockKitLimits(
      settingsModal({ cadence: 'daily', hour: 23, timeZone: 'America/Argentina/ComodRivadavia' }),
      'modal',
    );
  });
});
