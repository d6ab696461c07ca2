import type { RegistrarTransport } from '../client.js';
import { BadRequestError } from '../errors.js';
import { AssistantAnswer } from '../schemas/assistant.js';

export interface AssistantSearchParams {
  q: string;
  locale?: string | undefined;
}

/** Spec 4.6: one question, no conversation state; follow-ups must carry their own context. */
export function assistantResource(t: RegistrarTransport) {
  return {
    ask: async (params: AssistantSearchParams) => {
      if (params.q.trim() === '') throw new BadRequestError('assistant.search', 'empty question');
      return t.json({
        operation: 'assistant.search',
        method: 'GET',
        path: '/help/search',
        query: { q: params.q, locale: params.locale },
        schema: AssistantAnswer,
        // The queue owns retries of 503/429 (with backoff across processes), so none here.
        retry: false,
      });
    },
  };
}
