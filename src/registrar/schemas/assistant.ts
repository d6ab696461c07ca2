import { z } from 'zod';

/**
 * Assistant answer (docs/registrar-api.md §2.11). The inner type of `sources` is "not shown": strings, or objects with
 * a title and/or url, are accepted and normalised to `{ title, url? }`.
 */
const Source = z.lazy(() =>
  z
    .union([
      z.string(),
      z.looseObject({
        title: z.string().optional(),
        url: z.string().optional(),
        name: z.string().optional(),
      }),
    ])
    .transform((value) =>
      typeof value === 'string'
        ? { title: value }
        : {
            title: value.title ?? value.name ?? value.url ?? 'source',
            ...(value.url === undefined ? {} : { url: value.url }),
          },
    ),
);

export const AssistantAnswer = z.lazy(() =>
  z.looseObject({
    question: z.string().optional(),
    answer: z.string(),
    truncated: z.boolean().default(false),
    sources: z.array(Source).default([]),
    dashboard_url: z.string().optional(),
  }),
);
export type AssistantAnswer = z.infer<typeof AssistantAnswer>;
