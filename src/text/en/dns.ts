import type { TextArea } from './area.js';

/** What Regdesk says about dns (see ../index.ts). */
export const dns = {} satisfies TextArea;
