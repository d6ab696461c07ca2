import type { TextArea } from './area.js';

/** What Regdesk says about approvals (see ../index.ts). */
export const approvals = {} satisfies TextArea;
