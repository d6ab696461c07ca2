import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

/** One line of the table: a figure, what it is measured against in the same run, and the verdict. */
export interface Row {
  measure: string;
  value: string;
  /** The ceiling or baseline the value is compared with. */
  ceiling: string;
  ratio?: number;
  /** E.g. `≤ 2.00`; `info` for figures that are reported without a verdict. */
  goal: string;
  /** Undefined for `info` rows. */
  pass?: boolean;
}

/** A row whose ratio must stay at or below (`<=`), stay below (`<`) or reach (`>=`) `bound`. */
export function judged(
  measure: string,
  value: string,
  ceiling: string,
  ratio: number,
  op: '<=' | '<' | '>=',
  bound: number,
): Row {
  const met = op === '<=' ? ratio <= bound : op === '<' ? ratio < bound : ratio >= bound;
  const sign = op === '<=' ? '≤' : op === '<' ? '<' : '≥';
  return {
    measure,
    value,
    ceiling,
    ratio,
    goal: `${sign} ${bound.toFixed(2)}`,
    pass: Number.isFinite(ratio) && met,
  };
}

/** A scenario that could not be measured fails the run: a missing figure is not a passing one. */
export function failedRow(scenario: string, error: unknown): Row {
  const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  return {
    measure: `${scenario}: not measured`,
    value: message,
    ceiling: '—',
    goal: 'measured',
    pass: false,
  };
}

/** Nearest-rank percentile (p in 0..1) of unsorted values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

export const ms = (value: number) => `${value.toFixed(1)} ms`;
export const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;

export function machine(): string[] {
  const cpu = cpus();
  return [
    `CPU: ${cpu[0]?.model.trim() ?? 'unknown'}`,
    `Cores: ${cpu.length}`,
    `Memory: ${(totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    `Node: ${process.version} (${process.platform}/${process.arch})`,
  ];
}

/** A Markdown table padded to line up in a terminal too: the same text goes to stdout and the file. */
export function table(rows: readonly Row[]): string {
  const header = ['measure', 'value', 'ceiling / baseline', 'ratio', 'goal', 'result'];
  const cells = rows.map((row) => [
    row.measure,
    row.value,
    row.ceiling,
    row.ratio === undefined || !Number.isFinite(row.ratio) ? '—' : row.ratio.toFixed(2),
    row.goal,
    row.pass === undefined ? 'info' : row.pass ? 'pass' : 'FAIL',
  ]);
  const widths = header.map((title, i) =>
    Math.max(title.length, ...cells.map((line) => line[i]?.length ?? 0)),
  );
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

export function writeResults(
  path: string,
  rows: readonly Row[],
  notes: readonly string[],
  startedAt: Date,
  elapsedMs: number,
): void {
  const failed = rows.filter((row) => row.pass === false).length;
  const text = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` on ${startedAt.toISOString()} in ${(elapsedMs / 1000).toFixed(0)} s; ` +
      `${failed === 0 ? 'every goal met' : `${failed} goal(s) missed`}.`,
    '',
    '## Machine',
    '',
    ...machine().map((entry) => `- ${entry}`),
    '',
    '## Figures',
    '',
    table(rows),
    '',
    ...(notes.length === 0 ? [] : ['## Notes', '', ...notes.map((note) => `- ${note}`), '']),
  ].join('\n');
  writeFileSync(path, text);
}

const README_START = '<!-- bench:start -->';
const README_END = '<!-- bench:end -->';

/**
 * Replaces the figures between the bench markers of docs/benchmark.md (once the README's "Benchmark"
 * section) with this run's table and machine. False when the page has no markers (nothing is written).
 */
export function writeReadmeTable(path: string, rows: readonly Row[], startedAt: Date): boolean {
  const readme = readFileSync(path, 'utf8');
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) return false;
  const block = [
    README_START,
    `Latest run, ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC — ${machine().join(' · ')}:`,
    '',
    table(rows),
    '',
  ].join('\n');
  writeFileSync(path, readme.slice(0, start) + block + readme.slice(end));
  return true;
}
