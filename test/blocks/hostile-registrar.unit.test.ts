import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordsPage, zoneCard } from '../../src/features/dns/blocks.js';
import { dnssecCard } from '../../src/features/dnssec/blocks.js';
import { domainCard } from '../../src/features/domains/blocks.js';
import { certificateCard, organizationCard } from '../../src/features/tls/blocks.js';
import type {
  DnsRecord,
  DnssecState,
  DnsZone,
  TlsCertificate,
  TlsOrganization,
} from '../../src/registrar/index.js';
import { NotFoundError } from '../../src/registrar/index.js';
import { createLogger } from '../../src/shared/logger.js';
import { replyForError } from '../../src/slack/error-reply.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';

/** What a compromised or buggy registrar could put in any string field. */
const HOSTILE = [
  '<!channel>',
  '<!here>',
  '<@U0BOSS>',
  '<#C0ALL>',
  '<https://evil.example|click>',
  '&lt;',
  '*bold*',
  '`x`',
];
const hostileText = fc
  .array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 12 })), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join(''));

/** Every string in `value` replaced by one drawn from `texts`, in order (numbers and booleans kept). */
function poison<T>(value: T, texts: string[]): T {
  let i = 0;
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return texts[i++ % texts.length];
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === 'object')
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
    return node;
  };
  return walk(value) as T;
}

/** Every string Slack parses as mrkdwn: the fallback `text` and mrkdwn text objects (plain_text is inert). */
function mrkdwnStrings(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (Array.isArray(node)) return node.flatMap(mrkdwnStrings);
  if (node === null || typeof node !== 'object') return [];
  const object = node as Record<string, unknown>;
  if (object.type === 'plain_text') return [];
  return Object.entries(object).flatMap(([key, value]) => (key === 'type' ? [] : mrkdwnStrings(value)));
}

/** Active mrkdwn Regdesk did not mean: pings, mentions, channel links, or links it did not build. */
function activeMarkup(payload: unknown): string[] {
  const text = mrkdwnStrings(payload)
    .join('\n')
    .replace(/<!date\^\d+\^[^|>]*\|[^>]*>/g, '');
  return text.match(/<[!@#][^>]*>|<https:\/\/evil[^>]*>/g) ?? [];
}

const NOW = Date.UTC(2026, 10, 23);
const domain = {
  domain: 'example.com',
  owner: 'Owner GmbH',
  registered_at: NOW - 1e10,
  expires_at: NOW + 5e8,
  auto_renew: false,
  cancelled: false,
  dnssec_state: 'inactive',
  nameservers: ['ns1.example.net', 'ns2.example.net'],
};
const zone = {
  domain: 'example.com',
  origin: 'example.com.',
  delegation_nameservers: [{ host: 'ns1.example.net' }],
  soa: { primary_nameserver: 'ns1.example.net', mailbox: 'hostmaster.example.com' },
  by_type: { A: 2, MX: 1 },
} as unknown as DnsZone;
const records = [
  { id: 1, name: 'www', type: 'A', data: '192.0.2.1', ttl: 300, auto: false, active: true },
  { id: 2, name: '@', type: 'TXT', data: 'v=spf1 -all', ttl: 300 },
] as DnsRecord[];
const dnssec = {
  dnssec_state: 'pending',
  mode: 'external',
  desired_state: 'enabled',
  live_state: 'disabled',
  desired_records: [{ kind: 'ds', key_tag: 1, algorithm: 13, digest_type: 2, digest: 'AB' }],
  live_records: [],
  pending_job: { kind: 'activate', note: 'waiting' },
} as unknown as DnssecState;
const certificate = {
  id: 'cert-1',
  status: 'pending',
  common_name: 'www.example.com',
  product: 'RapidSSL',
  dns_names: ['www.example.com', 'example.com'],
  pending_reason: 'validation',
  pending_message: 'Publish the record',
  completion_url: 'https://dash.example.net/complete',
  validation: {
    method: 'dns-cname-token',
    dns_records: [{ name: '_x.example.com', type: 'CNAME', value: 'y' }],
  },
} as TlsCertificate;
const organization = {
  id: 'org-1',
  organization: 'Example AG',
  status: 'approved',
  first_name: 'Ada',
  last_name: 'L',
  address: 'Street 1',
  city: 'Berlin',
  country_code: 'DE',
  email: 'pki@example.com',
  phone: '+49 30 1',
} as TlsOrganization;

describe('every registrar string is inert in what Regdesk posts', () => {
  it('domain, DNS, DNSSEC, certificate and organization cards escape whatever the registrar says', () => {
    fc.assert(
      fc.property(fc.array(hostileText, { minLength: 8, maxLength: 8 }), (texts) => {
        const cards = [
          domainCard(poison(domain, texts), NOW),
          zoneCard(poison(zone, texts)),
          recordsPage({
            domain: 'example.com',
            type: undefined,
            total: 2,
            page: 0,
            pages: 1,
            records: poison(records, texts),
            editable: true,
          }),
          dnssecCard('example.com', poison(dnssec, texts)),
          certificateCard({
            ...poison(certificate, texts),
            completion_url: `https://evil.example/${texts[0] ?? ''}`,
          }),
          organizationCard(poison(organization, texts)),
        ];
        for (const card of cards) {
          expect(activeMarkup(card)).toEqual([]);
          assertWithinBlockKitLimits({ blocks: card.blocks, text: card.text }, 'message');
        }
      }),
      { numRuns: 150 },
    );
  });

  it('error replies quoting the registrar stay inert', () => {
    fc.assert(
      fc.property(hostileText, (said) => {
        const reply = replyForError(
          new NotFoundError('domains.get', said),
          createLogger({ level: 'silent' }),
        );
        expect(activeMarkup(reply)).toEqual([]);
      }),
    );
  });
});
