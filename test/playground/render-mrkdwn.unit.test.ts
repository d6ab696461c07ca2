import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatSlackDate } from '../../src/playground/web/dates.js';
import { parseMrkdwn } from '../../src/playground/web/mrkdwn.js';
import type { PlaygroundUser } from '../../src/playground/web/protocol.js';
import { type RenderContext, renderMrkdwn } from '../../src/playground/web/render-text.js';
import { ATTRIBUTES, elementsOf, TAGS, textOf, type VElement } from '../../src/playground/web/vnode.js';
import { escapeMrkdwn } from '../../src/slack/mrkdwn.js';

const ada: PlaygroundUser = {
  id: 'U0ADA',
  name: 'ada',
  realName: 'Ada Admin',
  isAdmin: true,
  isOwner: false,
  tz: 'America/New_York',
  locale: 'en-US',
};

function context(viewerTz = 'America/New_York'): RenderContext {
  return {
    users: [ada],
    channels: [{ id: 'C0GENERAL', name: 'general', kind: 'public', botMember: true, members: ['U0ADA'] }],
    bot: { userId: 'UBOT', name: 'Regdesk' },
    viewer: { tz: viewerTz, locale: 'en-US' },
    now: Date.parse('2023-11-14T12:00:00Z'),
  };
}

const render = (source: string, tz?: string): VElement => renderMrkdwn(context(tz), source);
const tagsOf = (node: VElement): string[] => elementsOf(node).map((e) => e.tag);
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;

describe('mrkdwn formatting', () => {
  it('renders bold, italic, strike and inline code as their elements', () => {
    const node = render('*bold* _italic_ ~gone~ `a < b`');
    const byTag = (tag: string) =>
      elementsOf(node)
        .filter((e) => e.tag === tag)
        .map(textOf);
    expect(byTag('b')).toEqual(['bold']);
    expect(byTag('i')).toEqual(['italic']);
    expect(byTag('s')).toEqual(['gone']);
    expect(byTag('code')).toEqual(['a < b']);
  });

  it('leaves markers inside words as typed, the way Slack does', () => {
    const node = render('snake_case_name and 2*3*4 and a_b');
    expect(tagsOf(node)).not.toContain('i');
    expect(tagsOf(node)).not.toContain('b');
    expect(textOf(node)).toBe('snake_case_name and 2*3*4 and a_b');
  });

  it('renders code blocks verbatim, quotes and lists', () => {
    const node = render(
      'before\n```\n*not bold* <@U0ADA>\n```\n> quoted *line*\n• one\n• two\n1. first\n2. second',
    );
    const pre = elementsOf(node).find((e) => e.tag === 'pre');
    expect(pre && textOf(pre)).toBe('*not bold* <@U0ADA>');
    const quote = elementsOf(node).find((e) => e.tag === 'blockquote');
    expect(quote && textOf(quote)).toBe('quoted line');
    expect(quote && tagsOf(quote)).toContain('b');
    const ul = elementsOf(node).find((e) => e.tag === 'ul');
    expect(ul?.children.map((li) => textOf(li))).toEqual(['one', 'two']);
    const ol = elementsOf(node).find((e) => e.tag === 'ol');
    expect(ol?.children.map((li) => textOf(li))).toEqual(['first', 'second']);
  });

  it('turns http, https and mailto links into anchors and nothing else', () => {
    const node = render(
      '<https://example.com/a?b=1&amp;c=2|the docs> <mailto:ops@example.com|mail> <javascript:alert(1)|click me> <data:text/html,x|data>',
    );
    const anchors = elementsOf(node).filter((e) => e.tag === 'a');
    expect(anchors.map((a) => a.attrs.href)).toEqual([
      'https://example.com/a?b=1&c=2',
      'mailto:ops@example.com',
    ]);
    expect(anchors[0]?.attrs.rel).toContain('noopener');
    expect(textOf(node)).toContain('click me');
    expect(textOf(node)).toContain('data');
  });

  it('shows user and channel mentions by name and specials inert', () => {
    const node = render('<@U0ADA> <@UBOT> <#C0GENERAL> <#C0OPS|ops> <!here> <!channel> <!everyone>');
    const mentions = elementsOf(node).filter((e) => e.attrs.class?.startsWith('mention'));
    expect(mentions.map(textOf)).toEqual([
      '@ada',
      '@Regdesk',
      '#general',
      '#ops',
      '@here',
      '@channel',
      '@everyone',
    ]);
    expect(tagsOf(node)).not.toContain('a');
  });

  it('decodes only the three entities Slack escapes', () => {
    expect(textOf(render('&lt;b&gt; &amp;amp; &quot;x&quot;'))).toBe('<b> &amp; &quot;x&quot;');
  });

  it('shows known emoji codes and leaves times and unknown codes alone', () => {
    expect(textOf(render(':white_check_mark: at 12:30:45 :not_an_emoji:'))).toBe(
      '✅ at 12:30:45 :not_an_emoji:',
    );
  });
});

describe('<!date^…> in the viewer’s time zone', () => {
  // 1700000000 is 2023-11-14 22:13:20 UTC.
  const token = '<!date^1700000000^{date_short} {time}|2023-11-14 22:13 UTC>';

  it('formats the same instant differently for viewers in different zones', () => {
    expect(textOf(render(token, 'America/New_York'))).toBe('Nov 14, 2023 5:13 PM');
    expect(textOf(render(token, 'Asia/Tokyo'))).toBe('Nov 15, 2023 7:13 AM');
    const time = elementsOf(render(token)).find((e) => e.tag === 'time');
    expect(time?.attrs.datetime).toBe('2023-11-14T22:13:20.000Z');
    expect(time?.attrs.title).toBe('2023-11-14 22:13 UTC');
  });

  it('knows Slack’s tokens, relative days and leaves unknown tokens as written', () => {
    const viewer = { tz: 'UTC', locale: 'en-US' };
    const now = Date.parse('2023-11-14T12:00:00Z');
    expect(formatSlackDate(1_700_000_000, '{date_num}|{date}|{date_long}', viewer, now)).toBe(
      '2023-11-14|November 14th, 2023|Tuesday, November 14th, 2023',
    );
    expect(formatSlackDate(1_700_000_000, '{date_short_pretty}', viewer, now)).toBe('Today');
    expect(formatSlackDate(1_700_000_000 + 86_400, '{date_pretty}', viewer, now)).toBe('Tomorrow');
    expect(formatSlackDate(1_700_000_000, '{ago}', viewer, now)).toBe('in 10 hours');
    expect(formatSlackDate(1_700_000_000, '{nonsense} {time_secs}', viewer, now)).toBe(
      '{nonsense} 10:13:20 PM',
    );
  });

  it('falls back to UTC for an unknown zone instead of failing', () => {
    expect(textOf(render(token, 'Not/AZone'))).toBe('Nov 14, 2023 10:13 PM');
  });
});

describe('hostile text stays inert', () => {
  it('shows raw markup as text, never as elements', () => {
    const hostile =
      '<script>alert(1)</script> <img src=x onerror=alert(1)> <a href="javascript:alert(1)">x</a>';
    const node = render(hostile);
    expect(tagsOf(node)).toEqual(['div', 'p']);
    expect(textOf(node)).toBe(hostile);
  });

  it('shows escaped markup as the characters that were escaped', () => {
    const typed = '<script>alert("x")</script> & <!channel>';
    const node = render(escapeMrkdwn(typed));
    expect(textOf(node)).toBe(typed);
    expect(tagsOf(node)).toEqual(['div', 'p']);
  });

  it('neutralises bidi overrides and isolates the text it renders', () => {
    const node = render('invoice\u202Etxt.exe and \u2066isolated\u2069 *bold\u202Ebad*');
    expect(BIDI.test(textOf(node))).toBe(false);
    expect(textOf(node)).toContain('invoice\uFFFDtxt.exe');
    expect(node.attrs.dir).toBe('auto');
  });

  it('never produces a tag, attribute or URL outside the allow-lists (any input)', () => {
    const tags = new Set<string>(TAGS);
    const pieces = fc.constantFrom(
      '<',
      '>',
      '|',
      '*',
      '_',
      '~',
      '`',
      '```',
      '\n',
      '> ',
      '&lt;',
      '&amp;',
      'javascript:',
      'http://',
      'mailto:',
      '@U0ADA',
      '#C1',
      '!here',
      '!date^1700000000^{time}',
      '\u202E',
      '\u2067',
      ' onerror=',
      'script',
      ':x:',
    );
    const source = fc.oneof(
      fc.string(),
      fc.array(pieces, { maxLength: 30 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(source, (text) => {
        const node = render(text);
        for (const element of elementsOf(node)) {
          expect(tags.has(element.tag)).toBe(true);
          for (const [name, value] of Object.entries(element.attrs)) {
            expect(ATTRIBUTES.has(name)).toBe(true);
            if (name === 'href') expect(value).toMatch(/^(https?:\/\/[^/]|mailto:)/i);
          }
        }
        expect(BIDI.test(textOf(node))).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it('keeps a quote marker as text when a line only looks like one mid-paragraph', () => {
    expect(parseMrkdwn('a > b')).toEqual([{ t: 'para', children: [{ t: 'text', text: 'a > b' }] }]);
  });
});
