import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeMrkdwn } from '../../src/slack/mrkdwn.js';
import { closest, editDistance } from '../../src/slack/router.js';

describe('near-miss suggestions', () => {
  it('finds typos, transpositions and prefixes', () => {
    const names = ['check', 'info', 'ns', 'authcode', 'key', 'policy', 'audit'];
    expect(closest('chekc', names)).toBe('check');
    expect(closest('inf', names)).toBe('info');
    expect(closest('polcy', names)).toBe('policy');
    expect(closest('auth', names)).toBe('authcode');
    expect(closest('zzzzzz', names)).toBeUndefined();
  });

  it('edit distance is a metric on small strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (a, b) => {
        expect(editDistance(a, a)).toBe(0);
        expect(editDistance(a, b)).toBe(editDistance(b, a));
        expect(editDistance(a, b)).toBeLessThanOrEqual(Math.max(a.length, b.length));
      }),
    );
  });
});

describe('escapeMrkdwn', () => {
  it('leaves no raw control characters, and round-trips', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const escaped = escapeMrkdwn(text);
        expect(escaped).not.toMatch(/[<>]/);
        expect(escaped.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')).toBe(text);
      }),
    );
  });
});
