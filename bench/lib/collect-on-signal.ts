/**
 * Preloaded (`--import`, with `--expose-gc`) by the installations row into the two processes it
 * compares: on SIGUSR2 a full collection, then the V8 heap still in use printed on stdout
 * (`heap held #n: N MB`): what the process holds, which its resident size cannot say (on Node 26 twin
 * processes that did the same work sat 10–30 MB apart, before and after a collection alike). Nothing
 * else about the process changes.
 */
let collections = 0;
process.on('SIGUSR2', () => {
  (globalThis as { gc?: () => void }).gc?.();
  const held = (process.memoryUsage().heapUsed / 1_048_576).toFixed(2);
  process.stdout.write(`heap held #${++collections}: ${held} MB\n`);
});
