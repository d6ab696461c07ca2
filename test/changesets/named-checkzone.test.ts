import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseMasterFile, serializeZone } from '../../src/features/changesets/master-file.js';
import { findProgram, installDebianPackages, isRoot } from '../helpers/debian.js';
import { NAMESERVERS, ORIGIN, SOA, ZONE_RECORDS } from './zone-fixture.js';

/**
 * BIND's own zone checker reads what `/dns zone export` writes: the export promises a master file
 * that named-checkzone accepts. named-checkzone comes in Debian's bind9-utils; when it is missing
 * and we are root it is installed (test/helpers/debian.ts, as the DNS lab does for knot and unbound).
 * Only when it is missing and we may not install it is this file skipped, saying why.
 */
function namedCheckzone(): { path: string } | { skip: string } {
  const found = findProgram('named-checkzone');
  if (found !== undefined) return { path: found };
  if (!isRoot())
    return {
      skip: "named-checkzone is missing and only root may install it: run `sudo apt-get install -y bind9-utils` (Debian's package)",
    };
  console.log("[test] named-checkzone is missing: installing Debian's bind9-utils package (apt-get) ...");
  installDebianPackages(['bind9-utils']);
  const installed = findProgram('named-checkzone');
  if (installed === undefined)
    throw new Error('apt-get installed bind9-utils, but named-checkzone is missing.');
  return { path: installed };
}

const tool = namedCheckzone();
if ('skip' in tool) console.warn(`[test] skipping test/changesets/named-checkzone.test.ts: ${tool.skip}`);

const dir = mkdtempSync(join(tmpdir(), 'regdesk-zone-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs named-checkzone on a zone text: its exit status and what it printed. */
function check(
  text: string,
  ...options: string[]
): { status: number | null; output: string; stdout: string } {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.zone`);
  writeFileSync(file, text);
  const path = 'path' in tool ? tool.path : 'named-checkzone';
  const run = spawnSync(path, [...options, ORIGIN.slice(0, -1), file], { encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}`.trim(), stdout: run.stdout };
}

const zone = { origin: ORIGIN, soa: SOA, nameservers: NAMESERVERS, records: ZONE_RECORDS };

describe.skipIf('skip' in tool)('named-checkzone accepts an exported zone', () => {
  it('loads the 40-record zone (long TXT, IDN, CAA, SRV, MX) with no warning, under strict checks', () => {
    expect(ZONE_RECORDS).toHaveLength(40);
    const text = serializeZone(zone);
    // -k fail: bad host names fail. -i local: MX, SRV and NS targets in the zone must have addresses;
    // `full` would also look up targets elsewhere in the live DNS, which a test must not depend on.
    const result = check(text, '-k', 'fail', '-i', 'local');
    expect(result.output).toBe('zone example.com/IN: loaded serial 2026112201\nOK');
    expect(result.status).toBe(0);
  });

  it('loads a zone without SOA details from the registrar (the defaults)', () => {
    const result = check(serializeZone({ ...zone, soa: undefined }), '-k', 'fail', '-i', 'local');
    expect(result.output).toBe('zone example.com/IN: loaded serial 1\nOK');
    expect(result.status).toBe(0);
  });

  it('reads every record as we do: its canonical dump parses to the records of our text', () => {
    const text = serializeZone(zone);
    const dump = check(text, '-D', '-o', '-');
    expect(dump.status).toBe(0);
    const ours = parseMasterFile(text, ORIGIN);
    const bind = parseMasterFile(dump.stdout, ORIGIN);
    expect(bind).toMatchObject({ ok: true, notes: [{ code: 'soa_ignored' }] });
    expect(ours.ok).toBe(true);
    if (!ours.ok || !bind.ok) return;
    const key = (r: { name: string; type: string; data: string; ttl?: number; priority?: number }) =>
      JSON.stringify([r.name, r.type, r.data, r.ttl, r.priority]);
    expect(bind.records.map(key).sort()).toEqual(ours.records.map(key).sort());
    // 40 records, less the ALIAS and the inactive one (comments), the two apex NS in both.
    expect(ours.records).toHaveLength(38);
  });

  it('refuses what it should: the check itself works', () => {
    const broken = `${serializeZone(zone)}www\tIN\tA\t192.0.2.200\n`; // a CNAME and other data
    expect(check(broken).status).not.toBe(0);
  });
});
