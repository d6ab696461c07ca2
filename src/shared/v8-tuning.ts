import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Start-up settings that keep an idle Regdesk process small (issue #17; docs/architecture.md "Memory").
 * Loaded by the entry point before any other module, so it imports nothing but Node's own.
 */
export function beginStartup(): void {
  // Started as `node dist/src/cli.js …` rather than through the bin, the launch flags (src/cli.ts) are
  // missing; the semi-space size can still be set now, before the program's modules load. An
  // operator's own NODE_OPTIONS setting wins.
  if (!`${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`.includes('semi-space-size'))
    for (const flag of ['--max-semi-space-size=1', '--semi-space-growth-factor=1']) setFlagsFromString(flag);
  // Loading the libraries runs loops (command tables, schemas) hot enough for V8's optimising compiler,
  // which then keeps about 5 MB of its own code and data resident for functions that never run again.
  // Off until start-up is over; requests are optimised as usual.
  setFlagsFromString('--no-turbofan');
}

/**
 * Start-up is over: the optimising compiler is back, V8 favours speed again (the launch flag's
 * size-over-speed heuristics also make its collector busier), and one full collection frees what loading left
 * behind (about 10 MB that V8 would otherwise keep committed until its idle memory reducer runs, some
 * 10 s later). The `gc` function comes from a fresh context with `--expose-gc` set for that moment
 * only, so no other code sees it. Costs ~15 ms.
 */
export function endStartup(): void {
  setFlagsFromString('--turbofan');
  setFlagsFromString('--no-optimize-for-size');
  setFlagsFromString('--expose-gc');
  try {
    (runInNewContext('gc') as () => void)();
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
