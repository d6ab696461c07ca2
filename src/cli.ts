#!/usr/bin/env node
// The entry point stays tiny: signal handling is installed before the program's modules load.
import { setFlagsFromString } from 'node:v8';
import { installShutdown } from './shutdown.js';

// Regdesk allocates little per request, so V8's young generation need not grow to its default 32 MB
// (16 MB semi-spaces), which an idle process would otherwise keep resident. Set before the program's
// modules load; an operator's own NODE_OPTIONS setting wins.
if (!`${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`.includes('semi-space-size'))
  for (const flag of ['--max-semi-space-size=1', '--semi-space-growth-factor=1']) setFlagsFromString(flag);

const shutdown = installShutdown();
const { runCli } = await import('./cli-program.js');
await runCli(process.argv, shutdown);
