import type { DnsRecord } from '../../src/registrar/index.js';

/**
 * A realistic zone of 40 records as the registrar answers it: the apex NS (auto), web, mail with SPF,
 * DMARC and a 2048-bit DKIM key (a TXT over 255 bytes), a 2,000-character TXT (Regdesk's longest),
 * quotes, backslashes and a control character in TXT, CAA of every common tag, SRV for SIP, XMPP and
 * autodiscover, IDN owners, a wildcard, a delegation, an ALIAS and an inactive record.
 */
const DKIM_KEY =
  'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAr5tLq1Tj0Sj6cQ9pPZ2n8pTn4Q1U0gOq5Hk0s2' +
  'Z1e9l0J7o5mF4rYx8xVvBq3JtWcL2yA0n7kXh3Pq8yRz4uS6dG1fT9bE2wN5aK7cV0mL3hQ8iJ4gD6pF1sR9tU2vW5xY8zA0bC3d' +
  'E6fG9hI2jK5lM8nO1pQ4rS7tU0vW3xY6zA9bC2dE5fG8hI1jK4lM7nO0pQ3rS6tU9vW2xY5zA8bC1dE4fG7hI0jK3lM6nO9pQ2r' +
  'S5tU8vW1xY4zA7bC0dE3fG6hI9jK2lM5nO8pQ1rS4tU7vW0xY3zA6bC9dE2fG5hI8jK1lM4nO7pQ0rS3tU6vW9xY2zA5bC8dE1fG' +
  '4hI7jK0lM3nO6pQ9rS2tU5vW8xY1zA4bC7dE0fG3hI6jK9lM2nO5pQ8rS1tU4vW7xY0zA3bC6dE9fG2hIDAQAB';

const LONG_TXT = Array.from({ length: 200 }, (_, i) => `token-${String(i).padStart(3, '0')}`)
  .join('')
  .slice(0, 2000);

export const ORIGIN = 'example.com.';
export const NAMESERVERS = ['ns1.regfish.de.', 'ns2.regfish.net.'];
export const SOA = {
  primary_nameserver: 'ns1.regfish.de.',
  mailbox: 'hostmaster.example.com.',
  serial: 2026112201,
  refresh: 10_800,
  retry: 3600,
  expire: 604_800,
  minimum: 300,
  ttl: 86_400,
};

let id = 1000;
const r = (
  name: string,
  type: string,
  data: string,
  ttl = 3600,
  extra: Partial<DnsRecord> = {},
): DnsRecord => ({
  id: id++,
  name: name === '@' ? ORIGIN : `${name}.${ORIGIN}`,
  type,
  data,
  ttl,
  auto: false,
  active: true,
  ...extra,
});

export const ZONE_RECORDS: DnsRecord[] = [
  r('@', 'NS', 'ns1.regfish.de.', 86_400, { auto: true }),
  r('@', 'NS', 'ns2.regfish.net.', 86_400, { auto: true }),
  r('@', 'A', '192.0.2.10'),
  r('@', 'AAAA', '2001:db8::10'),
  r('@', 'MX', 'mail.example.com.', 3600, { priority: 10 }),
  r('@', 'MX', 'mx2.example.net.', 3600, { priority: 20 }),
  r('@', 'TXT', 'v=spf1 mx include:_spf.example.net -all'),
  r('@', 'TXT', 'google-site-verification=Zq9xYk3mN7pL2vB8cR5tW1sD4fG6hJ0aQ'),
  r('@', 'CAA', '0 issue "letsencrypt.org"'),
  r('@', 'CAA', '0 issuewild ";"'),
  r('@', 'CAA', '128 iodef "mailto:security@example.com"'),
  r('@', 'ALIAS', 'lb.example.net.'),
  r('www', 'CNAME', 'example.com.'),
  r('ftp', 'CNAME', 'www.example.com.'),
  r('mail', 'A', '192.0.2.25'),
  r('mail', 'AAAA', '2001:db8::25'),
  r('_dmarc', 'TXT', 'v=DMARC1; p=quarantine; rua=mailto:dmarc@example.com; pct=100'),
  r('selector1._domainkey', 'TXT', DKIM_KEY, 300),
  r('long', 'TXT', LONG_TXT, 300),
  r('quotes', 'TXT', 'she said "hi" \\o/ and left\ttabbed', 300),
  r('unicode', 'TXT', 'Grüße aus Köln — 東京', 300),
  r('_sip._tcp', 'SRV', '60 5060 sip.example.com.', 3600, { priority: 10 }),
  r('_sip._udp', 'SRV', '60 5060 sip.example.com.', 3600, { priority: 10 }),
  r('_xmpp-client._tcp', 'SRV', '0 5222 xmpp.example.com.', 3600, { priority: 5 }),
  r('_autodiscover._tcp', 'SRV', '0 443 mail.example.com.', 3600, { priority: 0 }),
  r('sip', 'A', '192.0.2.50'),
  r('xmpp', 'A', '192.0.2.51'),
  r('xn--bcher-kva', 'A', '192.0.2.60'),
  r('xn--mnchen-3ya', 'AAAA', '2001:db8::60'),
  r('shop.xn--bcher-kva', 'CNAME', 'shops.myshopify.com.'),
  r('*.apps', 'A', '192.0.2.70', 300),
  r('api', 'A', '192.0.2.80', 60),
  r('api', 'A', '192.0.2.81', 60),
  r('dev', 'AAAA', '2001:db8:0:1::1', 600),
  r('sub', 'NS', 'ns1.other-dns.net.', 86_400),
  r('sub', 'NS', 'ns2.other-dns.net.', 86_400),
  r('blog', 'CNAME', 'example.github.io.'),
  r('old', 'A', '192.0.2.99', 300, { active: false }),
  r('staging', 'A', '192.0.2.90', 300),
  r('verify', 'TXT', 'a;b(c)d', 300),
];
