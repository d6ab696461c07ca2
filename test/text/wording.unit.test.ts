import { describe, expect, it } from 'vitest';
import { exitCodeOf, fix, note, ok, renderReport } from '../../src/doctor/report.js';
import { approvalMessage } from '../../src/features/approvals/blocks.js';
import { changeSummary } from '../../src/features/records/blocks.js';
import { orderModal } from '../../src/features/tls/modals.js';
import { count } from '../../src/text/en/numbers.js';
import { inLanguage, texts } from '../../src/text/index.js';
import { approvalRequest } from '../helpers/approval-request.js';

const en = texts('en');
const de = texts('de');

describe('the wording of a careful Slack app (issue #47)', () => {
  it('counts in English as the German catalog does: one noun, or its plural, never "(s)"', () => {
    expect(count(1, 'approval')).toBe('1 approval');
    expect(count(2, 'approval')).toBe('2 approvals');
    expect(count(1_500, 'record')).toBe('1,500 records');
    expect(en.approvals.statePending({ remaining: 1, approvedSoFar: undefined })).toContain(
      '1 more approval',
    );
    expect(en.approvals.statePending({ remaining: 3, approvedSoFar: undefined })).toContain(
      '3 more approvals',
    );
    expect(en.dns.tooFewRecords({ min: 1 })).toBe('At least 1 record is needed.');
  });

  it('says "cannot be undone" only where nothing undoes it, and offers Revert where it exists', () => {
    expect(en.approvals.approveConfirmText({ summary: 'revoke x', undo: 'never' })).toContain(
      'cannot be undone',
    );
    const record = en.approvals.approveConfirmText({ summary: 'add x', undo: 'revert' });
    expect(record).not.toContain('cannot be undone');
    expect(record).toContain('Revert');
    expect(en.approvals.approveConfirmText({ summary: 'order x', undo: undefined })).toBe(
      'This will *order x*.',
    );
    expect(de.approvals.approveConfirmText({ summary: 'x', undo: 'revert' })).toContain('Rückgängig');
  });

  it('writes a record change’s outcome as a sentence after "Done.", naming the change once', () => {
    const outcome = en.records.outcome({
      summary: 'add TXT record a.example.com in example.com',
      id: '7sZ5Q6Gq',
    });
    const line = en.approvals.stateSucceeded({ outcome, approvers: en.approvals.nobody as never });
    expect(line).toMatch(/Done\. Change 7sZ5Q6Gq: add TXT record/);
    expect(line).not.toContain('kept first');
  });

  it('shows a name’s Unicode and ASCII forms once in a record change’s summary', () => {
    const summary = changeSummary('xn--bcher-kva.de', {
      kind: 'add',
      after: { type: 'A', name: 'www.xn--bcher-kva.de.', data: '192.0.2.1', ttl: 3600 },
    } as Parameters<typeof changeSummary>[1]);
    expect(summary).toBe('add A record www.bücher.de (www.xn--bcher-kva.de) in bücher.de');
  });

  it('tells a newcomer in the order modal how to make a CSR, in both languages', () => {
    const oneLiner =
      'openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout example.key';
    expect(JSON.stringify(orderModal('C1'))).toContain(oneLiner);
    const german = JSON.stringify(inLanguage('de', () => orderModal('C1')));
    expect(german).toContain(oneLiner);
    expect(german).toContain('Noch kein CSR?');
  });

  it('points each command’s help to the others', () => {
    const domain = en.slack.helpOthers({ command: '/domain' });
    expect(domain).toContain('`/dns help`');
    expect(domain).toContain('`/tls help`');
    expect(domain).toContain('`/ask QUESTION`');
    expect(domain).not.toContain('`/domain help`');
    expect(de.slack.helpOthers({ command: '/tls' })).toContain('`/ask FRAGE`');
  });

  it('shows a request in its reader’s language where it was worded in it, else as stored', () => {
    const request = approvalRequest({
      summary: 'revoke certificate c1',
      details: ['Certificate `c1`'],
      translations: { de: { summary: 'Zertifikat c1 widerrufen', details: ['Zertifikat `c1`'] } },
    });
    const english = JSON.stringify(approvalMessage(request));
    const german = JSON.stringify(inLanguage('de', () => approvalMessage(request)));
    expect(english).toContain('revoke certificate c1');
    expect(german).toContain('Zertifikat c1 widerrufen');
    expect(german).toContain('Zertifikat `c1`');
    expect(german).not.toContain('revoke certificate');
  });
});

describe('regdesk doctor’s report', () => {
  const words = texts('en').doctor;

  it('aligns one line per check and ends with what to do', () => {
    const lines = renderReport(
      [ok('Redis', 'fine'), fix('registrar key T1', 'rejected'), note('DNS resolvers', 'so-so')],
      words,
    );
    expect(lines).toEqual([
      'ok    Redis             fine',
      'FIX   registrar key T1  rejected',
      'note  DNS resolvers     so-so',
      '',
      'One thing to fix (the lines marked FIX); docs/troubleshooting.md says more.',
    ]);
  });

  it('exits 1 only when a line says FIX: notes are fine', () => {
    expect(exitCodeOf([ok('a', 'b'), note('c', 'd')])).toBe(0);
    expect(exitCodeOf([ok('a', 'b'), fix('c', 'd')])).toBe(1);
    expect(renderReport([ok('a', 'b')], words).at(-1)).toBe('Everything holds.');
  });
});
