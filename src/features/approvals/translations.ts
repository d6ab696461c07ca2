import { currentLocale, inLanguage, LOCALES, type Locale } from '../../text/index.js';
import type { OperationContext, SensitiveOperation } from './operations.js';
import type { RequestWording } from './record.js';

/**
 * The context with its registrar client's answers remembered, call by call: a preview worded again in
 * another language reads nothing again (one read per request, R34), and sees what the first one saw.
 */
export function rememberingReads<Ctx extends OperationContext>(context: Ctx): Ctx {
  if (!('registrar' in context) || typeof context.registrar !== 'object' || context.registrar === null)
    return context;
  const answers = new Map<string, unknown>();
  const resources = context.registrar as Record<string, unknown>;
  const registrar = Object.fromEntries(
    Object.entries(resources).map(([area, resource]) => [
      area,
      typeof resource !== 'object' || resource === null
        ? resource
        : Object.fromEntries(
            Object.entries(resource).map(([name, method]) => [
              name,
              typeof method !== 'function'
                ? method
                : (...args: unknown[]) => {
                    const key = `${area}.${name}:${JSON.stringify(args)}`;
                    if (!answers.has(key)) answers.set(key, method(...args));
                    return answers.get(key);
                  },
            ]),
          ),
    ]),
  );
  return { ...context, registrar };
}

/**
 * The summary and details in every other language, for the people who read those (an approver's copy,
 * App Home), worded from the same reads (`context` from `rememberingReads`, after the preview). Where
 * wording fails, its readers see the words as stored, in the workspace's language.
 */
export async function otherLanguages<Ctx extends OperationContext, Op extends SensitiveOperation<Ctx>>(
  operation: Op,
  context: Ctx,
  params: Record<string, unknown>,
): Promise<Partial<Record<Locale, RequestWording>>> {
  const spoken = currentLocale();
  const worded = await Promise.all(
    LOCALES.filter((locale) => locale !== spoken).map((locale) =>
      inLanguage(locale, async (): Promise<Array<[Locale, RequestWording]>> => {
        try {
          const { details } = await operation.preview(context, params);
          return [[locale, { summary: operation.summary(params), details }]];
        } catch {
          return [];
        }
      }),
    ),
  );
  return Object.fromEntries(worded.flat());
}
