import { describe, expect, it } from 'vitest';
import { ACTION_CLASSES } from '../../src/features/policy/classes.js';
import {
  documentOf,
  notYetEnforced,
  type PolicyDocument,
  policyOf,
} from '../../src/features/policy/document.js';
import { DEFAULT_POLICY, STRICTEST_POLICY } from '../../src/features/policy/policy.js';
import { activeFreeze, rulesFor, zoneMatches } from '../../src/features/policy/rules.js';
import { parsePolicyYaml, policyYaml } from '../../src/features/policy/yaml.js';

/** The contract's example (§3 "Policy"), as an admin would save it. */
const EXAMPLE = `version: 2
language: auto
approvers: [U0A1, S0GROUP]
requesters: everyone
expiryHours: 24
escalateTo: []
mcp: read
actions:
  revoke:     { approvals: 2, reason: required, expiryHours: 4 }
  authcode:   { approvals: 1, reason: required, approvers: [S0SEC] }
  delegation: { approvals: 1 }
  dnssec:     { approvals: 1 }
  record:     { approvals: 1, exemptTypes: [TXT], exemptPeople: [] }
  order:      { approvals: 0, who: everyone }
  publish:    { approvals: 0 }
zones:
  - match: "*.prod.example"
    actions: { record: { approvals: 2 } }
freezes:
  - name: Black Friday
    from: "2026-11-27T00:00:00+01:00"
    to: "2026-11-30T23:59:59+01:00"
    actions: [record, delegation, dnssec]
  - name: Weekends
    weekly: { days: [sat, sun], from: "00:00", to: "24:00", timeZone: Europe/Berlin }
    actions: [delegation]
`;

function example(): PolicyDocument {
  const parsed = parsePolicyYaml(EXAMPLE);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.document;
}

const at = (iso: string) => Date.parse(iso);

describe('the policy document (version 2)', () => {
  it('reads the contract’s example, and writes it back to the same document', () => {
    const document = example();
    expect(document.actions.revoke).toEqual({ approvals: 2, reason: 'required', expiryHours: 4 });
    expect(document.freezes).toHaveLength(2);
    const again = parsePolicyYaml(policyYaml(document));
    expect(again.ok && again.document).toEqual(document);
  });

  it('fills what is left out with the defaults', () => {
    const parsed = parsePolicyYaml('version: 2\n');
    expect(parsed.ok && parsed.document).toMatchObject({
      approvals: 1,
      expiryHours: 24,
      requesters: 'everyone',
      approvers: [],
      actions: {},
      zones: [],
      freezes: [],
    });
  });

  it.each([
    ['unknown field', 'version: 2\napprovls: 2\n', '', 'approvls'],
    ['approvals out of range', 'actions:\n  revoke: { approvals: 6 }\n', 'actions.revoke.approvals', ''],
    ['unknown class', 'actions:\n  purge: { approvals: 1 }\n', 'actions', 'purge'],
    [
      'a field of another class',
      'actions:\n  revoke: { exemptTypes: [TXT] }\n',
      'actions.revoke',
      'exemptTypes',
    ],
    [
      'a reason neither required nor optional',
      'actions:\n  authcode: { reason: maybe }\n',
      'actions.authcode.reason',
      '',
    ],
    ['a person who is no Slack id', 'approvers: [alice]\n', 'approvers[0]', ''],
    [
      'a time zone that does not exist',
      'freezes:\n  - name: W\n    weekly: { days: [sat], from: "00:00", to: "24:00", timeZone: Mars/Olympus }\n    actions: [record]\n',
      'freezes[0]',
      '',
    ],
    [
      'a freeze that ends before it starts',
      'freezes:\n  - name: F\n    from: "2026-12-02T00:00:00Z"\n    to: "2026-12-01T00:00:00Z"\n    actions: [record]\n',
      'freezes[0]',
      '',
    ],
    [
      'a freeze of no class',
      'freezes:\n  - name: F\n    from: "2026-12-01T00:00:00Z"\n    to: "2026-12-02T00:00:00Z"\n    actions: []\n',
      'freezes[0]',
      '',
    ],
    [
      'a zone pattern that is no name',
      'zones:\n  - match: "prod example"\n    actions: {}\n',
      'zones[0].match',
      '',
    ],
    ['version 3', 'version: 3\n', 'version', ''],
    ['not YAML', 'actions: { revoke: [\n', 'line', ''],
  ])('names the error of %s by its path', (_what, source, path, mention) => {
    const parsed = parsePolicyYaml(source);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.some((error) => error.path.startsWith(path))).toBe(true);
    if (mention !== '') expect(JSON.stringify(parsed.errors)).toContain(mention);
  });

  it('reads a policy saved by /domain policy as version 2 (contract: earlier versions keep working)', () => {
    const defaults = documentOf(DEFAULT_POLICY);
    expect(defaults).toMatchObject({
      version: 2,
      approvals: 1,
      requesters: 'everyone',
      actions: {
        record: { approvals: 1 },
        order: { approvals: 0, who: 'everyone' },
        publish: { approvals: 0 },
      },
    });
    const strict = documentOf({ ...STRICTEST_POLICY, approverGroup: 'S0SEC', approvers: ['U0A'] });
    expect(strict).toMatchObject({
      approvals: 5,
      expiryHours: 1,
      approvers: ['U0A', 'S0SEC'],
      requesters: ['U0A'],
      actions: { record: { approvals: 5 }, order: { approvals: 5, who: [] }, publish: { approvals: 5 } },
    });
    // What it says is what rules apply: the saved count for every class without an exemption.
    for (const actionClass of ACTION_CLASSES)
      expect(rulesFor(strict, actionClass).approvals, actionClass).toBe(5);
  });
});

/** The contract's example: everything in it is enforced. */
const SUPPORTED = EXAMPLE;

describe('the document as stored', () => {
  it('is stored and read back as the same document', () => {
    const parsed = parsePolicyYaml(SUPPORTED);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(notYetEnforced(parsed.document)).toEqual([]);
    expect(documentOf(policyOf(parsed.document))).toEqual(parsed.document);
    // What /domain policy shows for it: orders and publishing at once, record changes with approval.
    expect(policyOf(parsed.document)).toMatchObject({
      approvers: ['U0A1'],
      approverGroup: 'S0GROUP',
      ordersNeedApproval: false,
      recordChangesNeedApproval: true,
      recordChangeExemptTypes: ['TXT'],
      validationPublishing: 'own-orders',
      actions: { revoke: { approvals: 2, expiryHours: 4 } },
    });
  });

  it('names what is not enforced yet by its path, instead of saving it to no effect', () => {
    expect(notYetEnforced(example())).toEqual([]);
    // Every class may run at once, a reason may be required, and escalation goes to people and groups.
    const atOnce = parsePolicyYaml(
      'escalateTo: [U0X, S0Y]\nrequesters: [U0R, S0R]\nactions:\n  revoke: { approvals: 0, reason: required, approvers: [S0A, S0B] }\n',
    );
    expect(atOnce.ok && notYetEnforced(atOnce.document)).toEqual([]);
    const groups = parsePolicyYaml('approvers: [U0A, S0A, S0B]\n');
    if (!groups.ok) throw new Error('does not parse');
    expect(notYetEnforced(groups.document)).toEqual([]);
    // Several groups are stored and read back as they were written.
    expect(documentOf(policyOf(groups.document)).approvers).toEqual(['U0A', 'S0A', 'S0B']);
  });

  it('keeps a class count /domain policy switches only while its switch is on', () => {
    const parsed = parsePolicyYaml('approvals: 1\nactions:\n  order: { approvals: 3 }\n');
    if (!parsed.ok) throw new Error('does not parse');
    const stored = policyOf(parsed.document);
    expect(rulesFor(documentOf(stored), 'order').approvals).toBe(3);
    // The modal turns order approvals off, then on again: off is 0, on is the class's 3 again.
    expect(rulesFor(documentOf({ ...stored, ordersNeedApproval: false }), 'order').approvals).toBe(0);
    expect(rulesFor(documentOf({ ...stored, ordersNeedApproval: true }), 'order').approvals).toBe(3);
  });
});

describe('rules per class and zone', () => {
  it.each([
    [
      'revoke',
      undefined,
      { approvals: 2, reason: 'required', expiryHours: 4, approvers: ['U0A1', 'S0GROUP'] },
    ],
    ['authcode', undefined, { approvals: 1, reason: 'required', expiryHours: 24, approvers: ['S0SEC'] }],
    ['record', 'shop.example', { approvals: 1, reason: 'optional' }],
    ['record', 'api.prod.example', { approvals: 2 }],
    ['record', 'API.Prod.Example.', { approvals: 2 }],
    ['record', 'prod.example', { approvals: 1 }],
    ['delegation', 'api.prod.example', { approvals: 1 }],
    ['order', undefined, { approvals: 0 }],
  ] as const)('%s on %s', (actionClass, zone, expected) => {
    expect(rulesFor(example(), actionClass, zone)).toMatchObject(expected);
  });

  it('takes the first zone that matches and names the class', () => {
    const parsed = parsePolicyYaml(`zones:
  - match: "*.example"
    actions: { dnssec: { approvals: 3 } }
  - match: "shop.example"
    actions: { record: { approvals: 4 } }
  - match: "*.example"
    actions: { record: { approvals: 5 } }
`);
    if (!parsed.ok) throw new Error('example does not parse');
    expect(rulesFor(parsed.document, 'record', 'shop.example').approvals).toBe(4);
    expect(rulesFor(parsed.document, 'record', 'blog.example').approvals).toBe(5);
    expect(rulesFor(parsed.document, 'dnssec', 'shop.example').approvals).toBe(3);
    expect(zoneMatches('*.example', 'example')).toBe(false);
  });
});

describe('freezes, on the wall clock of their time zone', () => {
  it.each([
    // One-off: from its first instant to its last, in any offset written.
    [
      'Black Friday, during',
      'record',
      '2026-11-28T12:00:00Z',
      { name: 'Black Friday', until: '2026-11-30T22:59:59.000Z' },
    ],
    ['Black Friday, not its class', 'order', '2026-11-28T12:00:00Z', undefined],
    ['Black Friday, a second before', 'record', '2026-11-26T22:59:59Z', undefined],
    ['Black Friday, its first second', 'record', '2026-11-26T23:00:00Z', { name: 'Black Friday' }],
    // Weekly, across Europe/Berlin's spring change (2026-03-29, 02:00 → 03:00): Sunday is 23 hours.
    [
      'a Saturday before the change',
      'delegation',
      '2026-03-28T12:00:00Z',
      { name: 'Weekends', until: '2026-03-29T22:00:00.000Z' },
    ],
    ['Friday 23:59 in Berlin', 'delegation', '2026-03-27T22:59:00Z', undefined],
    ['Saturday 00:00 in Berlin', 'delegation', '2026-03-27T23:00:00Z', { name: 'Weekends' }],
    ['Monday 00:00 in Berlin, summer time', 'delegation', '2026-03-29T22:00:00Z', undefined],
    // And the autumn change (2026-10-25, 03:00 → 02:00): Sunday is 25 hours, the end is 23:00 UTC.
    [
      'a Sunday of 25 hours',
      'delegation',
      '2026-10-25T12:00:00Z',
      { name: 'Weekends', until: '2026-10-25T23:00:00.000Z' },
    ],
    ['Sunday 23:30 in Berlin, winter time', 'delegation', '2026-10-25T22:30:00Z', { name: 'Weekends' }],
  ] as const)('%s', (_when, actionClass, now, expected) => {
    const freeze = activeFreeze(example(), actionClass, at(now));
    if (expected === undefined) {
      expect(freeze).toBeUndefined();
      return;
    }
    expect(freeze?.name).toBe(expected.name);
    if ('until' in expected) expect(new Date(freeze?.until ?? 0).toISOString()).toBe(expected.until);
  });

  it('a window across midnight starts on its day and ends the next morning', () => {
    const parsed = parsePolicyYaml(`freezes:
  - name: Night
    weekly: { days: [fri], from: "18:00", to: "06:00", timeZone: America/New_York }
    actions: [record]
`);
    if (!parsed.ok) throw new Error('example does not parse');
    // Friday 2026-12-04 20:00 in New York (UTC−5) is 2026-12-05T01:00Z; it ends Saturday 06:00 (11:00Z).
    expect(activeFreeze(parsed.document, 'record', at('2026-12-05T01:00:00Z'))).toEqual({
      name: 'Night',
      until: at('2026-12-05T11:00:00Z'),
    });
    expect(activeFreeze(parsed.document, 'record', at('2026-12-05T11:00:00Z'))).toBeUndefined();
    // Thursday night is not Friday's window.
    expect(activeFreeze(parsed.document, 'record', at('2026-12-04T01:00:00Z'))).toBeUndefined();
  });

  it('of several freezes in force, names the one that lasts longest', () => {
    const document = example();
    // Saturday 2026-11-28 in Berlin: Black Friday (to Monday night) and Weekends (to Monday 00:00).
    expect(activeFreeze(document, 'delegation', at('2026-11-28T12:00:00Z'))?.name).toBe('Black Friday');
  });
});
