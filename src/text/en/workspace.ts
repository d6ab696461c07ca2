import type { TextArea } from './area.js';

/** What Regdesk says about the workspace: App Home, keys, audit, install, following (see ../index.ts). */
export const workspace = {} satisfies TextArea;
