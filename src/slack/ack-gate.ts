import type { ReceiverEvent } from '@slack/bolt';

/**
 * The longest a handler's after-ack work waits for other requests' acks: far inside what follow-up
 * work can afford (a trigger_id lives 3 s, a response_url 30 minutes).
 */
const ACKS_FIRST_MAX_MS = 500;
/** Requests of a burst arrive a few ms apart: "all answered" must hold this long to count. */
const QUIET_MS = 20;

/**
 * Acks first (docs/requirements.md R1). Counts the requests this process is handling whose ack has
 * not gone out yet, in HTTP and in Socket Mode alike (both receivers pass every event through
 * `track`). A handler whose work after its ack is heavy (a registrar read, Slack calls) may call
 * `acksFirst()` right after acking: under a burst, that work then waits until the burst's other
 * requests have their acks, instead of competing with them for the CPU, so each ack stays near the
 * cost of its request alone. It is a choice the handler makes in plain sight (`lookup()` does), not
 * something `ack()` does: `await ack()` only answers.
 */
export class AckGate {
  #unanswered = 0;
  #waiting: Array<() => void> = [];
  #quietTimer: NodeJS.Timeout | undefined;

  /** Runs one event, counted as unanswered until its ack goes out (or it finishes without one). */
  track(event: ReceiverEvent, process: (event: ReceiverEvent) => Promise<void>): Promise<void> {
    this.#unanswered++;
    clearTimeout(this.#quietTimer);
    let counted = true;
    const answered = () => {
      if (!counted) return;
      counted = false;
      this.#unanswered--;
      if (this.#unanswered <= 0) this.#quiet();
    };
    const ack = event.ack;
    const tracked: ReceiverEvent = {
      ...event,
      ack: async (response) => {
        try {
          await ack(response);
        } finally {
          answered();
        }
      },
    };
    return process(tracked).finally(answered);
  }

  /** Resolves once no request of this process waits for its ack (or after ACKS_FIRST_MAX_MS). */
  acksFirst(): Promise<void> {
    return new Promise<void>((resolve) => {
      const resume = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiting = this.#waiting.filter((waiting) => waiting !== resume);
        resolve();
      }, ACKS_FIRST_MAX_MS);
      this.#waiting.push(resume);
      if (this.#unanswered <= 0) this.#quiet();
    });
  }

  /** Resumes the waiting work once no request has been waiting for its ack for QUIET_MS. */
  #quiet(): void {
    clearTimeout(this.#quietTimer);
    this.#quietTimer = setTimeout(() => {
      if (this.#unanswered > 0) return;
      const waiting = this.#waiting;
      this.#waiting = [];
      for (const resume of waiting) resume();
    }, QUIET_MS);
  }
}
