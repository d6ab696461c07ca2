/**
 * The planning half of the change-set row (issue #44), run by bench/scenarios/changesets.ts as a child
 * on each runtime the bench measures (`node dist/bench/changesets-plan.js`), so the figure is that
 * Node's. It times the feature's own modules, in process, on what a 500-record import hands them:
 * `parseMasterFile` on a 500-record master file, and `planChanges` from a zone of 500+ records to the
 * 500 records parsed (merge and replace). Prints one line of JSON: each timing's samples in ms.
 */
import { parseMasterFile } from '../src/features/changesets/master-file.js';
import { planChanges } from '../src/features/changesets/plan.js';
import { masterFile, SET_SIZE, wantedOf, zoneBefore } from './lib/zone.js';

const ORIGIN = 'plan.example';
/** Records of the zone the text does not have: replace deletes them. */
const EXTRA = 150;
const WARMUP = 30;
const SAMPLES = 200;

function timed(run: () => void): number[] {
  for (let i = 0; i < WARMUP; i++) run();
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return samples;
}

const text = masterFile(ORIGIN, SET_SIZE);
const parsed = parseMasterFile(text, ORIGIN);
if (!parsed.ok)
  throw new Error(`bench: the generated master file does not parse: ${JSON.stringify(parsed.errors[0])}`);
if (parsed.records.length !== SET_SIZE) throw new Error(`bench: ${parsed.records.length} records parsed`);
const wanted = wantedOf(parsed.records);
const zone = zoneBefore(ORIGIN, wanted, EXTRA);

const merge = planChanges(ORIGIN, zone, wanted, 'merge');
const replace = planChanges(ORIGIN, zone, wanted, 'replace');
const kinds = (steps: { kind: string }[]) =>
  Object.fromEntries(
    ['add', 'edit', 'delete'].map((kind) => [kind, steps.filter((s) => s.kind === kind).length]),
  );

process.stdout.write(
  `${JSON.stringify({
    bytes: Buffer.byteLength(text),
    zone: zone.length,
    merge: { ...kinds(merge.steps), unchanged: merge.unchanged },
    replace: { ...kinds(replace.steps), unchanged: replace.unchanged },
    parse: timed(() => {
      parseMasterFile(text, ORIGIN);
    }),
    planMerge: timed(() => {
      planChanges(ORIGIN, zone, wanted, 'merge');
    }),
    planReplace: timed(() => {
      planChanges(ORIGIN, zone, wanted, 'replace');
    }),
  })}\n`,
);
