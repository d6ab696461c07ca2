import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownToMrkdwn, resolveLink, splitMrkdwn } from '../../src/features/assistant/markdown.js';

const BASE = 'https://dash.example.net/';

describe('markdownToMrkdwn', () => {
  it('converts headings, emphasis, lists, code and links', () => {
    const md = [
      '## Enable DNSSEC',
      'Use **Settings** and *then* `dnssec enable`.',
      '- first',
      '  - nested',
      '1. one',
      '> a quote',
      'See [the zone page](/my/dns/example.com) or https://example.org/help.',
      '```',
      'dig +dnssec example.com <tag>',
      '```',
    ].join('\n');
    const out = markdownToMrkdwn(md, BASE);
    expect(out).toContain('*Enable DNSSEC*');
    expect(out).toContain('Use *Settings* and _then_ `dnssec enable`.');
    expect(out).toContain('• first');
    expect(out).toContain('   • nested');
    expect(out).toContain('1. one');
    expect(out).toContain('> a quote');
    expect(out).toContain('<https://dash.example.net/my/dns/example.com|the zone page>');
    expect(out).toContain('<https://example.org/help.|https://example.org/help.>');
    expect(out).toContain('```\ndig +dnssec example.com &lt;tag&gt;\n```');
  });

  it('makes hostile answers inert: no mention, ping or foreign link survives', () => {
    const out = markdownToMrkdwn(
      'Hi <!channel> <@U123> <https://evil.example|click> [x](javascript:alert(1))',
      BASE,
    );
    expect(out).not.toMatch(/<!channel>|<@U123>|<https:\/\/evil/);
    expect(out).not.toContain('javascript:');
    expect(out).toContain('&lt;!channel&gt;');
  });

  it('never emits an unescaped < or > outside the links it builds', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const out = markdownToMrkdwn(text, BASE);
        // What remains after removing built links and line-leading quote markers must be inert.
        const withoutLinks = out.replace(/<https?:\/\/[^|<>\s]+\|[^<>]*>/g, '').replace(/^> ?/gm, '');
        expect(withoutLinks).not.toMatch(/[<>]/);
      }),
    );
  });

  it('resolves only http(s) links', () => {
    expect(resolveLink('/my/billing', BASE)).toBe('https://dash.example.net/my/billing');
    expect(resolveLink('mailto:a@b.c', BASE)).toBeUndefined();
    expect(resolveLink('not a url', BASE)).toBeUndefined();
  });
});

describe('splitMrkdwn', () => {
  it('splits within the limit and keeps code blocks closed', () => {
    const long = `intro\n\n\`\`\`\n${'x '.repeat(4000)}\n\`\`\`\n\nend`;
    const pieces = splitMrkdwn(long, 3000);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(3000);
      expect((piece.match(/```/g) ?? []).length % 2).toBe(0);
    }
    expect(
      pieces
        .join(' ')
        .replace(/```\n?/g, '')
        .replace(/\s+/g, ''),
    ).toBe(long.replace(/```\n?/g, '').replace(/\s+/g, ''));
  });
});
