/**
 * One area's entries: a sentence without parameters is a string; one with parameters is a function of
 * a named-parameter object. Every string parameter arrives escaped for mrkdwn (src/text/index.ts);
 * one that carries Regdesk's own markup (a mention, a date token, a sentence it built) is typed `Markup`.
 */
export type TextArea = Record<string, string | ((params: never) => string)>;
