#!/usr/bin/env -S node --
// The entry point stays tiny: signal handling is installed before the program's modules load.
//
// Node's launch flags live in bin/regdesk, which `npx regdesk`, `npm start` and the Docker image run
// (docs/architecture.md "Memory"); run directly, this file gets Node's defaults. The `--` above ends
// Node's own options: Node 20 and 26 otherwise read an `--env-file` among the script's arguments
// themselves (nodejs/node#54232), so `regdesk --env-file PATH` would exit 9 with Node's message on a
// missing file and let a NODE_OPTIONS line in it change how Node runs.
import { installShutdown } from './shutdown.js';

const shutdown = installShutdown();
const { runCli } = await import('./cli-program.js');
await runCli(process.argv, shutdown);
