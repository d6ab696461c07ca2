import type { TextArea } from './area.js';

/** What the Slack layer and shared errors say: usage, refusals, platform errors, unavailability (see ../index.ts). */
export const slack = {} satisfies TextArea;
