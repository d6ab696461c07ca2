import type { AssistantAnswer } from '../../registrar/index.js';

/** How a question ended: the registrar's answer, or why there is none. */
export type Outcome =
  | {
      ok: true;
      answer: AssistantAnswer;
      /** Set when the answer came from the cache: when the registrar gave it. */
      cachedAt?: number;
      /**
       * Set when the question carried an exchange answered privately to its asker (history.ts): the
       * answer then goes to the asker alone, whatever the channel has become meanwhile.
       */
      confidential?: true;
    }
  | { ok: false; reason: string };
