import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PageRef, recordsPage } from '../../src/features/dns/blocks.js';
import { DNS_IDS } from '../../src/features/dns/ids.js';
import { RECORDS_PER_PAGE, recordPage } from '../../src/features/dns/service.js';
import { InternalUpstreamError, NotFoundError, type RegistrarClient } from '../../src/registrar/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { BadMetadataError, readMetadata } from '../../src/slack/modal.js';
import { sandboxClient } from '../helpers/registrar.js';

/** The sandbox seeds nine records per domain (src/sandbox/state.ts), one of them MX. */
const SEEDED = 9;

describe('DNS record pages against the registrar sandbox', () => {
  let sandbox: Sandbox;
  let registrar: RegistrarClient;
  const reads = () => sandbox.calls.filter((call) => call.operation === 'dns.records');

  beforeEach(async () => {
    sandbox = await createSandbox();
    registrar = sandboxClient(sandbox);
  });
  afterEach(async () => {
    await sandbox.close();
  });

  /** Record changes are another feature's (test/records); here the page is read-only. */
  const offered = async () => false;

  it('filters by type whatever its case', async () => {
    const page = await recordPage(registrar, 'example.com', 'mx', 0, offered);
    expect(page).toMatchObject({ type: 'MX', total: 1, page: 0, pages: 1 });
    expect(page.records.map((record) => record.data)).toEqual(['10 mail.example.com.']);
  });

  it('pages a large zone 40 a page; a page out of range is the nearest one', async () => {
    sandbox.state.addRecords('example.com', 300);
    const total = SEEDED + 300;
    const first = await recordPage(registrar, 'example.com', undefined, 0, offered);
    expect(first).toMatchObject({ total, page: 0, pages: 8 });
    expect(first.records).toHaveLength(RECORDS_PER_PAGE);
    const beyond = await recordPage(registrar, 'example.com', undefined, 99, offered);
    expect(beyond).toMatchObject({ page: 7 });
    expect(beyond.records).toHaveLength(total - 7 * RECORDS_PER_PAGE);
    expect(await recordPage(registrar, 'example.com', undefined, -3, offered)).toMatchObject({ page: 0 });
    // Every page is read afresh: the zone may have changed in between.
    expect(reads()).toHaveLength(3);
  });

  it('a type with no records is one empty page', async () => {
    expect(await recordPage(registrar, 'example.com', 'SRV', 0, offered)).toEqual({
      domain: 'example.com',
      type: 'SRV',
      total: 0,
      page: 0,
      pages: 1,
      records: [],
      editable: false,
    });
  });

  it('a domain not in the account is NotFoundError (HTTP 200 with code 15001, docs/registrar-api.md §4.4)', async () => {
    await expect(recordPage(registrar, 'not-in-account.com', undefined, 0, offered)).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('a 502 on the read is retried; a 500 reaches the caller', async () => {
    sandbox.faults.inject('dns.records', { status: 502, times: 1 });
    expect(await recordPage(registrar, 'example.com', undefined, 0, offered)).toMatchObject({
      total: SEEDED,
    });
    expect(reads().map((call) => call.status)).toEqual([502, 200]);
    sandbox.faults.inject('dns.records', { status: 500 });
    await expect(recordPage(registrar, 'example.com', undefined, 0, offered)).rejects.toBeInstanceOf(
      InternalUpstreamError,
    );
  });

  it('paging buttons carry a value that reads back; an altered one is refused', async () => {
    sandbox.state.addRecords('example.com', 100);
    const rendered = JSON.stringify(
      recordsPage(await recordPage(registrar, 'example.com', 'txt', 1, offered)).blocks,
    );
    const pressed = (id: string) =>
      JSON.parse(
        `"${new RegExp(`"action_id":"${id}","value":"((?:[^"\\\\]|\\\\.)*)"`).exec(rendered)?.[1]}"`,
      );
    expect(readMetadata(PageRef, pressed(DNS_IDS.recordsPrev))).toEqual({ d: 'example.com', t: 'TXT', p: 0 });
    expect(readMetadata(PageRef, pressed(DNS_IDS.recordsNext))).toEqual({ d: 'example.com', t: 'TXT', p: 2 });
    for (const altered of ['{"d":"Example.COM","t":"","p":0}', '{"d":"example.com","t":"","p":1.5}', 'x']) {
      expect(() => readMetadata(PageRef, altered)).toThrow(BadMetadataError);
    }
  });
});
