import type { TextArea } from './area.js';

/** What Regdesk says about assistant (see ../index.ts). */
export const assistant = {} satisfies TextArea;
