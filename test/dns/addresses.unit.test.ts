import { describe, expect, it } from 'vitest';
import { AddressPolicy, addressKind, parseAllowedRanges } from '../../src/dns/addresses.js';

describe('which addresses live checks may ask (IANA special-purpose registries)', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['193.0.14.129', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['2a00:1450:4001:82a::200e', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.53.1.10', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['169.254.169.253', 'link-local'],
    ['169.254.169.254', 'link-local'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.9', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['fd00::53', 'unique-local'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2002:7f00:1::1', 'translation'],
    ['64:ff9b::a00:1', 'translation'],
    ['2001::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['not-an-address', 'invalid'],
  ])('%s is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it('judges IPv4-mapped IPv6 forms as their IPv4 address, in either notation', () => {
    expect(addressKind('::ffff:127.0.0.1')).toBe('loopback');
    expect(addressKind('::ffff:7f00:1')).toBe('loopback');
    expect(addressKind('::ffff:10.0.0.1')).toBe('private');
    expect(addressKind('::ffff:a9fe:a9fe')).toBe('link-local');
    // Even a public IPv4 address is not asked through its mapped form: that is no address on the wire.
    expect(addressKind('::ffff:8.8.8.8')).toBe('translation');
  });

  it('lets LIVE_CHECK_ALLOW open a lab range, and nothing outside it', () => {
    const parsed = parseAllowedRanges('127.53.0.0/16, fd00:53::/32');
    if (!('ranges' in parsed)) throw new Error(parsed.problem);
    const policy = new AddressPolicy(parsed.ranges);
    expect(policy.judge('127.53.7.10')).toBe('allowed');
    expect(policy.judge('::ffff:127.53.7.10')).toBe('allowed');
    expect(policy.judge('fd00:53::1')).toBe('allowed');
    expect(policy.judge('127.0.0.1')).toBe('loopback');
    expect(policy.judge('fd00:54::1')).toBe('unique-local');
    expect(policy.judge('8.8.8.8')).toBe('public');
    expect(policy.mayAsk('127.53.7.10')).toBe(true);
    expect(policy.mayAsk('10.0.0.1')).toBe(false);
    // A zone index names an interface: never allowed, whatever the ranges.
    expect(new AddressPolicy([{ network: 'fe80::', prefix: 10 }]).judge('fe80::1%eth0')).toBe('link-local');
    expect(new AddressPolicy().mayAsk('127.53.7.10')).toBe(false);
  });

  it('reads LIVE_CHECK_ALLOW and names what is wrong with it', () => {
    expect(parseAllowedRanges('10.0.0.0/8,192.168.5.7')).toEqual({
      ranges: [
        { network: '10.0.0.0', prefix: 8 },
        { network: '192.168.5.7', prefix: 32 },
      ],
    });
    expect(parseAllowedRanges('')).toEqual({ ranges: [] });
    expect(parseAllowedRanges('10.0.0.0/33')).toEqual({
      problem: '"10.0.0.0/33" has no valid prefix length (0–32)',
    });
    expect(parseAllowedRanges('lab.example/24')).toEqual({
      problem: '"lab.example/24" is not an address or CIDR range',
    });
    expect(parseAllowedRanges('::/129')).toEqual({ problem: '"::/129" has no valid prefix length (0–128)' });
    expect(parseAllowedRanges('10.0.0.0/8/1')).toEqual({
      problem: '"10.0.0.0/8/1" is not an address or CIDR range',
    });
  });
});
