import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_IDS } from '../../src/features/tls/ids.js';
import { fieldError } from '../../src/features/tls/service.js';
import type { OrganizationField } from '../../src/registrar/index.js';
import { inputActionId } from '../../src/slack/modal.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { messageText, viewSubmission } from '../helpers/payloads.js';

const values = (overrides: Partial<Record<OrganizationField, string>> = {}) => {
  const base: Record<OrganizationField, string> = {
    organization: 'Gamma GmbH',
    first_name: 'Grete',
    last_name: 'Gamma',
    address: 'Ring 3',
    postal_code: '8010',
    city: 'Graz',
    country_code: 'at',
    phone: '+43 316 123456',
    email: 'pki@gamma.example',
    ...overrides,
  };
  return Object.fromEntries(
    (Object.entries(base) as [OrganizationField, string][]).map(([field, value]) => [
      ORG_IDS.fields[field],
      { [inputActionId(ORG_IDS.fields[field])]: { type: 'plain_text_input', value } },
    ]),
  );
};

describe('TLS organizations from Slack', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('validates country code, e-mail and phone', () => {
    expect(fieldError('country_code', 'DE')).toBeUndefined();
    expect(fieldError('country_code', 'XX')).toContain('ISO 3166-1');
    expect(fieldError('email', 'nope')).toBeDefined();
    expect(fieldError('phone', 'call me')).toBeDefined();
    expect(fieldError('city', ' ')).toBe('Required.');
  });

  it('creates one through the modal (errors inline), and edits one prefilled', async () => {
    await h.driver.command('/tls', 'org new');
    const filled = (c: SlackCall) =>
      c.method === 'views.update' && messageText(c).includes(ORG_IDS.fields.organization);
    await h.slack.waitFor((calls) => calls.some(filled));
    assertWithinBlockKitLimits(h.slack.calls.find(filled)?.args.view, 'modal');
    const meta = JSON.stringify({ channel: 'C0001' });
    const bad = await h.driver.interaction(
      viewSubmission(ORG_IDS.modal, values({ country_code: 'XX', email: 'x' }), { privateMetadata: meta }),
    );
    expect(bad.json()).toMatchObject({
      response_action: 'errors',
      errors: {
        [ORG_IDS.fields.country_code]: expect.any(String),
        [ORG_IDS.fields.email]: expect.any(String),
      },
    });
    await h.driver.interaction(viewSubmission(ORG_IDS.modal, values(), { privateMetadata: meta }));
    await h.slack.waitFor((calls) =>
      calls.some((c) => c.method === 'chat.postEphemeral' && messageText(c).includes('Gamma GmbH')),
    );
    expect(
      [...h.sandbox.state.organizations.values()].some(
        (o) => o.organization === 'Gamma GmbH' && o.country_code === 'AT',
      ),
    ).toBe(true);

    await h.driver.command('/tls', 'org edit org-acme');
    await h.slack.waitFor((calls) =>
      calls.some((c) => c.method === 'views.update' && messageText(c).includes('Erika')),
    );
    await h.driver.interaction(
      viewSubmission(ORG_IDS.modal, values({ organization: 'Acme Example GmbH', city: 'Potsdam' }), {
        privateMetadata: JSON.stringify({ channel: 'C0001', orgId: 'org-acme' }),
      }),
    );
    await expect.poll(() => h.sandbox.state.organizations.get('org-acme')?.city).toBe('Potsdam');
  });
});
