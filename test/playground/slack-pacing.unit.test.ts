import { describe, expect, it } from 'vitest';
import { SlackPacing } from '../../src/playground/slack/pacing.js';

// Slack's rate limits as the bench's stand-in applies them, with explicit arrival times.
describe('SlackPacing', () => {
  it('lets one chat.postMessage a second through per channel (100 ms of jitter allowed)', () => {
    const pacing = new SlackPacing();
    expect(pacing.refusal('chat.postMessage', { channel: 'C1' }, 10_000)).toBeUndefined();
    expect(pacing.refusal('chat.postMessage', { channel: 'C2' }, 10_100)).toBeUndefined();
    expect(pacing.refusal('chat.postMessage', { channel: 'C1' }, 10_400)).toBe(1);
    expect(pacing.refusal('chat.postMessage', { channel: 'C1' }, 10_900)).toBeUndefined();
    expect(pacing.limitedCount()).toBe(1);
    expect(pacing.limitedCount('chat.update')).toBe(0);
  });

  it('allows 50 Tier 3 calls a minute per method, then answers with the seconds to wait', () => {
    const pacing = new SlackPacing();
    for (let i = 0; i < 50; i++) expect(pacing.refusal('chat.update', {}, 1_000 + i)).toBeUndefined();
    expect(pacing.refusal('chat.update', {}, 31_000)).toBe(30);
    expect(pacing.refusal('reactions.add', {}, 31_000)).toBeUndefined();
    expect(pacing.refusal('chat.update', {}, 61_000)).toBeUndefined();
    expect(pacing.limited.get('chat.update')).toBe(1);
  });

  it('leaves other methods alone', () => {
    const pacing = new SlackPacing();
    for (let i = 0; i < 100; i++) expect(pacing.refusal('chat.postEphemeral', {}, 1_000)).toBeUndefined();
    expect(pacing.limitedCount()).toBe(0);
  });
});
