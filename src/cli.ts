#!/usr/bin/env node
// The entry point stays tiny: signal handling is installed before the program's modules load.
import { installShutdown } from './shutdown.js';

const shutdown = installShutdown();
const { runCli } = await import('./cli-program.js');
await runCli(process.argv, shutdown);
