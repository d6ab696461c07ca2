import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { ask } from '../approvals/support.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';

const WS = { teamId: 'T0001' };

describe('what guests and outsiders see: App Home and /domain audit (signed requests, strict fake Slack)', () => {
  let h: Harness;
  const homes = (user: string) => h.slack.callsTo('views.publish').filter((c) => c.args.user_id === user);
  const openHome = async (user: string) => {
    const before = homes(user).length;
    await h.driver.event({ type: 'app_home_opened', user, channel: `D${user}`, tab: 'home' });
    await h.slack.waitFor(() => homes(user).length > before);
    const view = homes(user).at(-1)?.args.view;
    assertWithinBlockKitLimits(view, 'home');
    return JSON.stringify(view);
  };

  beforeAll(async () => {
    h = await startHarness();
    h.slack.users.set('UADMIN', { id: 'UADMIN', is_admin: true });
    h.slack.users.set('UGUEST', { id: 'UGUEST', is_ultra_restricted: true });
    h.slack.users.set('UEXT', { id: 'UEXT', team_id: 'T0OTHER' });
    h.slack.users.set('UGONE', { id: 'UGONE', deleted: true });
    await ask(h, '/tls', 'revoke cert-issued-recent superseded', { user: 'U0001', channel: 'CHOME1' });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('shows guests and outside people what Regdesk is and that they have no access; admins see everything', async () => {
    for (const [user, who] of [
      ['UGUEST', 'Guests'],
      ['UEXT', 'People from outside this workspace (Slack Connect)'],
    ] as const) {
      const home = await openHome(user);
      expect(home).toContain(`${who} cannot see approvals and the audit trail.`);
      expect(home).toContain('no access to approvals');
      for (const hidden of [
        APPROVAL_IDS.approve,
        'Pending approvals (',
        'Recent activity',
        'revoke',
        'API key',
      ])
        expect(home).not.toContain(hidden);
    }
    const admin = await openHome('UADMIN');
    for (const shown of [APPROVAL_IDS.approve, 'Pending approvals', 'Recent activity', 'Registrar API key'])
      expect(admin).toContain(shown);
  });

  it('keeps a guest’s Home restricted when it is re-published after a change', async () => {
    const before = homes('UGUEST').length;
    await ask(h, '/tls', 'revoke cert-issued-old superseded', { user: 'U0001', channel: 'CHOME2' });
    await h.slack.waitFor(() => homes('UGUEST').length > before, 10_000);
    const republished = JSON.stringify(homes('UGUEST').at(-1)?.args.view);
    expect(republished).toContain('Guests cannot see approvals');
    expect(republished).not.toContain(APPROVAL_IDS.approve);
  });

  it('refuses /domain audit to guests, outside people and deactivated accounts, saying why and audited', async () => {
    const audit = async (user: string) =>
      JSON.stringify((await h.driver.command('/domain', 'audit', { user })).json());
    expect(await audit('UGUEST')).toContain('Guests cannot see approvals and the audit trail.');
    expect(await audit('UEXT')).toContain('People from outside this workspace (Slack Connect) cannot');
    expect(await audit('UGONE')).toContain('Deactivated accounts cannot see approvals and the audit trail.');
    for (const user of ['UGUEST', 'UEXT', 'UGONE']) expect(await audit(user)).not.toContain('requested');
    expect(await audit('UADMIN')).toContain('requested');
    const refused = (await h.running.services.audit.latest(WS, { limit: 50 })).filter(
      (entry) => entry.action === 'refuse' && entry.operation === 'audit',
    );
    expect(new Set(refused.map((entry) => entry.actor))).toEqual(new Set(['UGUEST', 'UEXT', 'UGONE']));
  });
});
