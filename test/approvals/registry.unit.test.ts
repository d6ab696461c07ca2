import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineOperation, type RegistrarContext } from '../../src/features/approvals/operations.js';
import type { Requests } from '../../src/features/approvals/request.js';
import type { changeNameservers } from '../../src/features/domains/operations.js';
import { type Approvals, type OperationName, SENSITIVE_OPERATIONS } from '../../src/features/operations.js';

/** An operation that no feature declares: approvals must not accept it. */
const unregistered = defineOperation<RegistrarContext, 'dns.record.delete', { domain: string }>({
  name: 'dns.record.delete',
  actionClass: 'record',
  schema: z.object({ domain: z.string() }),
  summary: (p) => `delete a record of ${p.domain}`,
  target: (p) => p.domain,
  preview: async () => ({ details: [] }),
  precheck: async () => undefined,
  execute: async () => ({ outcome: 'deleted' }),
});

describe('the registry of sensitive operations', () => {
  it('holds every operation the features declare, once each', () => {
    expect(SENSITIVE_OPERATIONS.map((operation) => operation.name).sort()).toEqual([
      'dns.changeset',
      'dns.record',
      'dnssec.disable',
      'dnssec.external',
      'domain.authcode',
      'domain.ns',
      'tls.cancel',
      'tls.complete',
      'tls.order',
      'tls.publish',
      'tls.reissue',
      'tls.revoke',
    ]);
    expectTypeOf<'domain.ns'>().toExtend<OperationName>();
    expectTypeOf<'dns.record.delete'>().not.toExtend<OperationName>();
  });

  it('each operation declares the action class the policy governs it by', () => {
    const classes = Object.fromEntries(
      SENSITIVE_OPERATIONS.map((operation) => [operation.name, operation.actionClass]),
    );
    expect(classes).toEqual({
      'dns.changeset': 'record',
      'dns.record': 'record',
      'dnssec.disable': 'dnssec',
      'dnssec.external': 'dnssec',
      'domain.authcode': 'authcode',
      'domain.ns': 'delegation',
      'tls.cancel': 'revoke',
      'tls.complete': 'order',
      'tls.order': 'order',
      'tls.publish': 'publish',
      'tls.reissue': 'order',
      'tls.revoke': 'revoke',
    });
  });

  it('approvals accept a declared operation and refuse, at compile time, one no feature declares', () => {
    expectTypeOf<Approvals>().toExtend<Requests<typeof changeNameservers>>();
    expectTypeOf<Approvals>().not.toExtend<Requests<typeof unregistered>>();
  });
});
