import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkResolver } from '../../src/features/assistant/links.js';
import { markdownToMrkdwn } from '../../src/features/assistant/markdown.js';
import { resolveLink } from '../../src/slack/links.js';
import { splitMrkdwn } from '../../src/slack/mrkdwn.js';
import { anyText, PIECES } from './arbitraries.js';

const BASE = 'https://dash.example.net/';
/** The converter's own tests link to any http(s) host; which hosts may be linked is tested below. */
const anyHost = (href: string) => resolveLink(href, BASE);
const convert = (md: string) => markdownToMrkdwn(md, anyHost);

/** The links the converter builds; what is left of the output must hold no `<` at all. */
const BUILT_LINK = /<https?:\/\/[^|<>\s]+\|[^<>]*>/g;

/** Best of two runs: one GC pause on a loaded machine must not fail the test; quadratic work fails both. */
function millisToConvert(text: string): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 2; run++) {
    const start = performance.now();
    convert(text);
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

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
    const out = convert(md);
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
    const out = convert('Hi <!channel> <@U123> <https://evil.example|click> [x](javascript:alert(1))');
    expect(out).not.toMatch(/<!channel>|<@U123>|<https:\/\/evil/);
    expect(out).not.toContain('javascript:');
    expect(out).toContain('&lt;!channel&gt;');
  });

  it('never emits an unescaped < or > outside the links it builds', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const out = convert(text);
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

  it('keeps balanced parentheses in link destinations, as CommonMark does', () => {
    expect(convert('[Wiki](https://en.wikipedia.org/wiki/Foo_(bar))')).toBe(
      '<https://en.wikipedia.org/wiki/Foo_(bar)|Wiki>',
    );
    expect(convert('[a](https://x.org/a(b)c(d) "Title") and [b]( /my/x )')).toBe(
      '<https://x.org/a(b)c(d)|a> and <https://dash.example.net/my/x|b>',
    );
    expect(convert('[a [b] c](https://x.org/) [https://x.org/](https://x.org/)')).toBe(
      '<https://x.org/|a [b] c> <https://x.org/|https://x.org/>',
    );
  });

  it('keeps balanced parentheses in bare URLs, and the prose’s closing `)` outside', () => {
    const wiki = 'https://en.wikipedia.org/wiki/Foo_(bar)';
    expect(convert(`See ${wiki} today`)).toBe(`See <${wiki}|${wiki}> today`);
    expect(convert('(see https://example.org/x)')).toBe(
      '(see <https://example.org/x|https://example.org/x>)',
    );
    expect(convert(`(${wiki}).`)).toBe(`(<${wiki}|${wiki}>).`);
    expect(convert('**https://example.org/a**')).toBe('*<https://example.org/a|https://example.org/a>*');
  });

  it('converts strikethrough and bold italic', () => {
    expect(convert('~~strike~~, ~one~ and ~~~three~~~')).toBe('~strike~, ~one~ and ~~~three~~~');
    expect(convert('***bold italic***')).toBe('*_bold italic_*');
    expect(convert('___x___ and **bold _italic_ bold**')).toBe('*_x_* and *bold _italic_ bold*');
    expect(convert('# ***Title*** **x**')).toBe('*_Title_ x*');
    expect(convert('**[a](https://x.org/)**')).toBe('*<https://x.org/|a>*');
  });

  it('keeps intraword and unmatched markers literal', () => {
    expect(convert('snake_case_name, 2*3*4, ~5 min, a * b')).toBe('snake_case_name, 2*3*4, ~5 min, a * b');
    expect(convert('**open and *half')).toBe('**open and *half');
  });

  it('turns images into links labelled with their alt text, never a literal `!`', () => {
    expect(convert('![Logo](https://x.org/logo.png)')).toBe('<https://x.org/logo.png|Logo>');
    expect(convert('![](https://x.org/a.png)')).toBe('<https://x.org/a.png|image>');
    expect(convert('[![build](https://x.org/b.svg)](https://x.org/ci)')).toBe('<https://x.org/ci|build>');
    expect(convert('![alt <@U1>](javascript:alert(1))')).toBe('alt &lt;@U1&gt;');
  });

  it('keeps labels, code and blocks inert', () => {
    expect(convert('[a|b <!here>](https://x.org/)')).toBe('<https://x.org/|a∣b &lt;!here&gt;>');
    expect(convert('`**not bold** <@U1> [x](https://x.org/)` and ``a ` b``')).toBe(
      '`**not bold** &lt;@U1&gt; [x](https://x.org/)` and `a ˋ b`',
    );
    expect(convert('```\nrun `x` & <y>\n```')).toBe('```\nrun ˋxˋ &amp; &lt;y&gt;\n```');
    expect(convert('[mail](mailto:a@b.c) [x](javascript:alert(1))')).toBe('mail x');
    expect(convert('---\n* * *\n2) two\n+ item')).toBe('───\n───\n2. two\n• item');
    expect(convert('## C# ##\n# Title #')).toBe('*C#*\n*Title*');
  });

  it('produces no mention, ping or foreign link from any answer', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const out = convert(text);
        expect(out).not.toMatch(/<[!@#]/);
        const rest = out.replace(BUILT_LINK, '');
        expect(rest).not.toContain('<');
        expect(rest).not.toMatch(/&(?!amp;|lt;|gt;)/);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws, whatever the answer and dashboard URL', () => {
    fc.assert(
      fc.property(anyText, fc.oneof(fc.constant(BASE), fc.string()), (text, base) => {
        expect(typeof markdownToMrkdwn(text, linkResolver(base, [base]))).toBe('string');
      }),
      { numRuns: 500 },
    );
  });

  // A guard against catastrophic (quadratic) work, not a speed test: quadratic work on 100,000
  // characters takes many seconds, linear work a few milliseconds. The bound is far above what any
  // load on a shared 2-core machine adds (100 ms was seen exceeded in full-suite runs); the 10,000
  // run first also warms the JIT up.
  const LINEAR_MS = 1_500;
  const timeRepeated = (unit: string) =>
    [10_000, 100_000].map((n) => millisToConvert(unit.repeat(Math.ceil(n / unit.length)).slice(0, n)));

  it.each(['[', '*', '(', '`', '_', '~', '[(', '](', '[](', '![', '*_', '` `', '[a](x ', 'https://x(', '\n'])(
    'converts 100,000 × %j in linear time',
    (unit) => {
      expect(timeRepeated(unit)[1]).toBeLessThan(LINEAR_MS);
    },
  );

  it('converts any short pattern repeated to 100,000 characters in linear time', () => {
    const unit = fc
      .array(fc.constantFrom(...PIECES, 'a', 'x ', '"', 'https://x.org/', '<@U1>'), {
        minLength: 1,
        maxLength: 4,
      })
      .map((parts) => parts.join(''));
    // Patterns that make a token of every character (`)*(`) or 100,000 lines allocate that many
    // objects, and GC runs on a loaded machine: the same generous guard as above.
    fc.assert(
      fc.property(unit, (u) => {
        expect(timeRepeated(u)[1]).toBeLessThan(LINEAR_MS);
      }),
      { numRuns: 40 },
    );
  });
});

describe('linkResolver', () => {
  const links = linkResolver('https://Dash.Example.net', [
    'docs.example.org',
    'https://status.example.org/',
    'BÜCHER.example',
  ]);

  it('links the dashboard and the policy’s hosts only; any other link keeps just its label', () => {
    expect(
      markdownToMrkdwn(
        '[Billing](/my/billing) [Docs](https://docs.example.org/a) [Up](https://status.example.org) [B](https://bücher.example/x)',
        links,
      ),
    ).toBe(
      '<https://dash.example.net/my/billing|Billing> <https://docs.example.org/a|Docs> <https://status.example.org/|Up> <https://xn--bcher-kva.example/x|B>',
    );
    expect(
      markdownToMrkdwn(
        '[Log in](https://dash.example.net.evil.example/) [x](https://dash.example.net@evil.example/) [sub](https://a.docs.example.org/) https://evil.example/a',
        links,
      ),
    ).toBe('Log in x sub https://evil.example/a');
  });

  it('leaves relative links as text when the registrar names no dashboard', () => {
    expect(markdownToMrkdwn('[Billing](/my/billing)', linkResolver(undefined, ['docs.example.org']))).toBe(
      'Billing',
    );
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
