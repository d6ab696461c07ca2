import type { TextArea } from './area.js';

/** What Regdesk says about watches (see ../index.ts). */
export const watches = {} satisfies TextArea;
