import type { ReceiverEvent } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AckGate } from '../../src/slack/ack-gate.js';

/** An event whose handler runs until `finish()`; `acked` once the handler's ack went out. */
function pending(gate: AckGate) {
  let finish: () => void = () => {};
  let ack: (() => Promise<void>) | undefined;
  const acks: unknown[] = [];
  const event = { body: {}, ack: async (response?: unknown) => void acks.push(response) } as ReceiverEvent;
  const done = gate.track(event, (tracked) => {
    ack = () => tracked.ack();
    return new Promise<void>((resolve) => {
      finish = resolve;
    });
  });
  return { ack: () => (ack as () => Promise<void>)(), finish: () => finish(), done, acks };
}

describe('AckGate: a burst is answered before heavy after-ack work runs', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('holds after-ack work until every request in hand has its ack, then lets it go', async () => {
    const gate = new AckGate();
    const first = pending(gate);
    const second = pending(gate);
    await first.ack();
    let resumed = false;
    void gate.acksFirst().then(() => {
      resumed = true;
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(resumed).toBe(false);
    await second.ack();
    expect(second.acks).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(25);
    expect(resumed).toBe(true);
    first.finish();
    second.finish();
  });

  it('waits 500 ms at most, however long another request goes without its ack', async () => {
    const gate = new AckGate();
    const stuck = pending(gate);
    let resumed = false;
    void gate.acksFirst().then(() => {
      resumed = true;
    });
    await vi.advanceTimersByTimeAsync(499);
    expect(resumed).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    expect(resumed).toBe(true);
    stuck.finish();
  });

  it('a request that finishes without acking counts as answered; with none in hand the wait is short', async () => {
    const gate = new AckGate();
    const silent = pending(gate);
    let resumed = false;
    void gate.acksFirst().then(() => {
      resumed = true;
    });
    silent.finish();
    await silent.done;
    await vi.advanceTimersByTimeAsync(25);
    expect(resumed).toBe(true);
  });
});
