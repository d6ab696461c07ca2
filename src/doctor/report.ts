import type { en } from '../text/en/index.js';

/** The words of `regdesk doctor` in one language (src/text/{en,de}/doctor.ts), as written: a terminal needs no mrkdwn escaping. */
export type DoctorWords = (typeof en)['doctor'];

/** `ok`: it holds; `note`: worth knowing, nothing to fix; `fix`: Regdesk will not work right until it is fixed. */
export type Status = 'ok' | 'note' | 'fix';

/** One line of the report: what was checked, and what was found. */
export interface Finding {
  status: Status;
  subject: string;
  said: string;
}

export const ok = (subject: string, said: string): Finding => ({ status: 'ok', subject, said });
export const note = (subject: string, said: string): Finding => ({ status: 'note', subject, said });
export const fix = (subject: string, said: string): Finding => ({ status: 'fix', subject, said });

/** The findings as lines (status, subject, what was found; columns aligned), then the summary. */
export function renderReport(findings: readonly Finding[], words: DoctorWords): string[] {
  const statusWord: Record<Status, string> = {
    ok: words.statusOk,
    note: words.statusNote,
    fix: words.statusFix,
  };
  const statusWidth = Math.max(...Object.values(statusWord).map((word) => word.length));
  const subjectWidth = Math.max(0, ...findings.map((finding) => finding.subject.length));
  const lines = findings.map(
    (finding) =>
      `${statusWord[finding.status].padEnd(statusWidth)}  ${finding.subject.padEnd(subjectWidth)}  ${finding.said}`,
  );
  const toFix = findings.filter((finding) => finding.status === 'fix').length;
  lines.push('', toFix === 0 ? words.summaryHolds : words.summaryFix({ count: toFix }));
  return lines;
}

/** Contract §1: 0 when everything holds, 1 when something must be fixed. */
export function exitCodeOf(findings: readonly Finding[]): 0 | 1 {
  return findings.some((finding) => finding.status === 'fix') ? 1 : 0;
}

/** An error's message, for a line. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
