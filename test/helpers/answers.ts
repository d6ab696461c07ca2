import type { Harness } from './app-harness.js';

/**
 * Runs a slash command as `user` and returns what Regdesk answered on its response_url (JSON of the
 * first answer), once it has.
 */
export async function commandAnswer(
  h: Harness,
  command: string,
  words: string,
  options: { user: string; channel?: string },
): Promise<string> {
  const url = `${options.channel ?? ''}${options.user}-${Math.random().toString(36).slice(2)}`;
  await h.driver.command(command, words, { ...options, responseUrl: h.slack.responseUrl(url) });
  await h.slack.waitFor((calls) => calls.some((c) => c.method === `response_url:${url}`));
  return JSON.stringify(h.slack.callsTo(`response_url:${url}`)[0]?.args);
}
