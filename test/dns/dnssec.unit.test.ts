import { describe, expect, it } from 'vitest';
import { dsDigest, dsMatches, keyTag } from '../../src/dns/dnssec.js';
import { parseDnsServers } from '../../src/dns/servers.js';

// RFC 4034 §5.4: the DNSKEY of dskey.example.com and its DS (key tag 60485, SHA-1).
const KEY = {
  flags: 256,
  algorithm: 5,
  key: Buffer.from(
    'AQOeiiR0GOMYkDshWoSKz9XzfwJr1AYtsmx3TGkJaNXVbfi/2pHm822aJ5iI9BMzNXxeYCmZDRD99WYwYqUSdjMmmAphXdvxegXd/M5+X7OrzKBaMbCVdFLUUh6DhweJBjEVv5f2wwjM9XzcnOf+EPbtG9DMBmADjFDc2w/rljwvFw==',
    'base64',
  ),
};
const DIGEST = '2BB183AF5F22588179A53B0A98631FAD1A292118';

describe('DS digests and key tags (RFC 4034)', () => {
  it('computes the key tag and SHA-1 digest of the RFC example', () => {
    expect(keyTag(KEY)).toBe(60485);
    expect(dsDigest('dskey.example.com.', KEY, 1)?.toString('hex').toUpperCase()).toBe(DIGEST);
    // Owner names compare without case and with or without the root's dot.
    expect(dsDigest('DSKEY.Example.COM', KEY, 1)?.toString('hex').toUpperCase()).toBe(DIGEST);
  });

  it('matches a DS only with the right tag, algorithm and digest', () => {
    const ds = { keyTag: 60485, algorithm: 5, digestType: 1, digest: Buffer.from(DIGEST, 'hex') };
    expect(dsMatches('dskey.example.com', ds, KEY)).toBe(true);
    expect(dsMatches('other.example.com', ds, KEY)).toBe(false);
    expect(dsMatches('dskey.example.com', { ...ds, digest: Buffer.alloc(20) }, KEY)).toBe(false);
    expect(dsMatches('dskey.example.com', { ...ds, keyTag: 1 }, KEY)).toBe(false);
    expect(dsMatches('dskey.example.com', { ...ds, digestType: 9 }, KEY)).toBe(false);
  });
});

describe('DNS_RESOLVERS', () => {
  it('reads addresses with optional ports, IPv6 in brackets', () => {
    expect(parseDnsServers('192.0.2.1, 192.0.2.2:5353,[2001:db8::1]:53,2001:db8::2')).toEqual({
      servers: [
        { host: '192.0.2.1', port: 53 },
        { host: '192.0.2.2', port: 5353 },
        { host: '2001:db8::1', port: 53 },
        { host: '2001:db8::2', port: 53 },
      ],
    });
  });

  it('refuses names, bad ports and empty entries', () => {
    expect(parseDnsServers('dns.example.com')).toHaveProperty('problem');
    expect(parseDnsServers('192.0.2.1:0')).toHaveProperty('problem');
    expect(parseDnsServers('192.0.2.1:70000')).toHaveProperty('problem');
    expect(parseDnsServers('192.0.2.1,')).toHaveProperty('problem');
  });
});
