/**
 * One area's entries: a sentence without parameters is a string; one with parameters is a function of
 * a named-parameter object (values arrive escaped for mrkdwn where the builder needs it).
 */
export type TextArea = Record<string, string | ((params: never) => string)>;
