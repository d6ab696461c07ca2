import type { TextArea } from './area.js';

/** What Regdesk says about domains (see ../index.ts). */
export const domains = {} satisfies TextArea;
