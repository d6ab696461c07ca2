import { describe, expect, it } from 'vitest';
import { chromeFor } from '../../src/playground/web/chrome.js';
import { formatOffset } from '../../src/playground/web/clock-offset.js';
import { type Notice, noticeText } from '../../src/playground/web/notices.js';

/**
 * What Slack's client says in the playground (toasts) and the registrar panel's own words: every
 * notice and the clock in the acting member's language, German words for a German member (issue #47).
 */

const NOTICES: Notice[] = [
  { kind: 'unknownCommand', command: '/nope' },
  { kind: 'messagesOff' },
  { kind: 'mentionedOutside', channel: 'ops' },
  { kind: 'failed', step: 'command', name: '/tls', error: 'operation_timeout' },
  { kind: 'failed', step: 'form', error: 'dispatch_failed' },
  { kind: 'failed', step: 'messagesTab', error: 'dispatch_failed' },
  { kind: 'elementGone' },
  { kind: 'clockFixed' },
  { kind: 'notInChannel', channel: 'ops' },
  { kind: 'membershipUsage', command: '/remove' },
  { kind: 'membershipInDm', command: '/invite' },
  { kind: 'unknownMember', handle: 'nobody' },
  { kind: 'alreadyIn', member: 'Regdesk', channel: 'ops' },
  { kind: 'notIn', member: 'Regdesk', channel: 'ops' },
];
const english = chromeFor('en-US');
const german = chromeFor('de-DE');

describe('the playground’s notices', () => {
  it.each(NOTICES)('$kind is worded in each language', (notice) => {
    const [en, de] = [noticeText(english, notice), noticeText(german, notice)];
    expect(en).not.toBe('');
    expect(de).not.toBe(en);
  });

  it('says what Slack says, with the names it was given', () => {
    expect(noticeText(english, { kind: 'unknownCommand', command: '/nope' })).toContain(
      '/nope is not a valid command',
    );
    expect(noticeText(german, { kind: 'unknownCommand', command: '/nope' })).toContain(
      '/nope ist kein gültiger Befehl',
    );
    expect(noticeText(english, { kind: 'failed', step: 'form', error: 'dispatch_failed' })).toBe(
      'Submitting the form failed with the error "dispatch_failed"',
    );
    expect(noticeText(german, { kind: 'mentionedOutside', channel: 'ops' })).toContain('/invite @Regdesk');
  });
});

describe('the registrar panel’s clock and states', () => {
  it('says how far ahead the clock is in the member’s language', () => {
    expect(formatOffset(0, english)).toBe('real time');
    expect(formatOffset(26 * 3_600_000, english)).toBe('1 d 2 h ahead');
    expect(formatOffset(26 * 3_600_000, german)).toBe('1 T 2 Std. voraus');
    expect(formatOffset(1_000, german)).toBe('< 1 Min. voraus');
  });

  it('has German words for the simulator’s states, and shows an unknown one as sent', () => {
    for (const state of ['issued', 'pending', 'revoked', 'cancelled', 'enabled', 'disabled'])
      expect(german.states[state], state).toBeDefined();
    expect(english.states.issued).toBeUndefined();
  });
});
