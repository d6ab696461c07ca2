import { describe, expect, it } from 'vitest';
import { agentsBlocks } from '../../src/features/home/agents.js';
import { consentPage } from '../../src/features/mcp/consent.js';
import type { Grant } from '../../src/features/mcp/store.js';
import { checkBuilders, DATES, type Entry } from '../helpers/builder-checks.js';
import { NOW } from '../helpers/builder-fixtures.js';

/**
 * The App Home's agents section (home/agents.ts) at its largest: a client name at its 80-character
 * bound, with outside markup in it; its own 5 rows and 10 of others for an admin. Checked in every
 * language by test/helpers/builder-checks.ts.
 */
const grant = (i: number, user: string): Grant => ({
  id: `grant${String(i).padStart(19, '0')}`,
  workspace: { teamId: 'T0001' },
  user,
  clientId: `client-${i}`,
  clientName: `<!channel> *Agent* ${'x'.repeat(60)} ${i}`.slice(0, 80),
  resource: 'https://regdesk.example.com/mcp',
  createdAt: NOW - i * 3_600_000,
});
const GRANTS = [
  ...Array.from({ length: 8 }, (_, i) => grant(i, 'U0OWN')),
  ...Array.from({ length: 14 }, (_, i) => grant(100 + i, `U0OTHER${i}`)),
];

const BUILDERS: Entry[] = [
  [
    'agents section, an admin',
    'home',
    () => ({ type: 'home', blocks: agentsBlocks(GRANTS, 'U0OWN', true) }),
    DATES,
  ],
  [
    'agents section, a member',
    'home',
    () => ({ type: 'home', blocks: agentsBlocks(GRANTS, 'U0NONE', false) }),
  ],
];

checkBuilders('mcp', BUILDERS);

describe('the consent page', () => {
  it('names the client escaped, in the person’s language', () => {
    const page = consentPage('de', 'id_1', '<script>x</script>', 'evil.example');
    expect(page).toContain('&lt;script&gt;');
    expect(page).not.toContain('<script>');
    expect(page).toContain('Erlauben');
    expect(consentPage('en', 'id"><b', 'A', 'h')).toContain('value="idb"');
  });
});
