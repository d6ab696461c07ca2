import fc from 'fast-check';

/** Markdown-ish answers: the constructs the converter knows, hostile mrkdwn and plain text mixed. */
export const PIECES = [...'[]()*_`#', '![', '**', '~~', '```', '> ', '- ', '1. ', '\n', ' '];
const HOSTILE = ['<!channel>', '<@U123>', '<#C1>', ...'<>&|"!@', 'https://x.org/', '/my/a'];
const markdownish = fc
  .array(fc.oneof(fc.constantFrom(...PIECES, ...HOSTILE), fc.string({ maxLength: 3 })), { maxLength: 60 })
  .map((parts) => parts.join(''));

/** Any answer text a registrar could send. */
export const anyText = fc.oneof(
  markdownish,
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

/** Link targets: the dashboard's, allowed and foreign hosts, hostile and broken ones. */
export const anyHref = fc.oneof(
  fc.constantFrom(
    '/my/help',
    'https://dash.regfish.example/my/a|b>c',
    'https://docs.example.org/<@U1>',
    'https://evil.example/<!channel>',
    'https://dash.regfish.example@evil.example/',
    'javascript:alert(1)',
    '<#C1>',
  ),
  fc.webUrl(),
  fc.string({ maxLength: 40 }),
);
