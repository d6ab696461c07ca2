#!/usr/bin/env -S node --max-semi-space-size=1 --v8-pool-size=1 --optimize-for-size --
// The entry point stays tiny: signal handling is installed before the program's modules load.
//
// The launch flags above (what `npx regdesk` and `npm start` run; the Docker image sets its own for its
// Node, see the Dockerfile's ENTRYPOINT) size V8 for a
// small, mostly idle service (docs/architecture.md "Memory"): 1 MB semi-spaces instead of 16 MB
// (Regdesk allocates little per request), one V8 helper thread instead of four (each keeps its own
// malloc arena resident; a 2-core container gains nothing from more), and V8's size-over-speed
// heuristics (lazier compilation, slower heap growth). Measured by `npm run bench` (README "Benchmark").
// The closing `--` ends Node's own options: Node 20 and 26 otherwise read an `--env-file` among the
// script's arguments themselves (nodejs/node#54232), so `regdesk --env-file PATH` would exit 9 with
// Node's message on a missing file and let a NODE_OPTIONS line in it change how Node runs.
import { installShutdown } from './shutdown.js';

const shutdown = installShutdown();
const { runCli } = await import('./cli-program.js');
await runCli(process.argv, shutdown);
