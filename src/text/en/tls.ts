import type { TextArea } from './area.js';

/** What Regdesk says about tls (see ../index.ts). */
export const tls = {} satisfies TextArea;
