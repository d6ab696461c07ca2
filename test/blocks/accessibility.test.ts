import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalMessage, authCodeReadyMessage } from '../../src/features/approvals/blocks.js';
import { recordsPage } from '../../src/features/dns/blocks.js';
import { domainCard } from '../../src/features/domains/blocks.js';
import { certificateCard } from '../../src/features/tls/blocks.js';
import { createRegistrarClient, type RegistrarClient } from '../../src/registrar/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { approvalRequest } from '../helpers/approval-request.js';
import { assertLabelledButtons, assertWithinBlockKitLimits } from '../helpers/block-kit.js';

/** Buttons repeated down lists and across messages name their target to a screen reader. */
describe('accessible buttons', () => {
  let sandbox: Sandbox;
  let registrar: RegistrarClient;
  beforeAll(async () => {
    sandbox = await createSandbox();
    registrar = createRegistrarClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  const request = approvalRequest({
    id: 'apr_00000000000000aa',
    workspace: { teamId: 'T1' },
    operation: 'tls.revoke',
    target: 'cert-issued-recent',
    summary: 'revoke certificate cert-issued-recent',
  });

  it('Approve, Deny and Withdraw name the action; Reveal names the domain', () => {
    for (const audience of ['channel', 'approver'] as const) {
      const message = approvalMessage(request, audience);
      assertWithinBlockKitLimits(message, 'message');
      assertLabelledButtons(message.blocks, 'cert-issued-recent');
    }
    assertLabelledButtons(authCodeReadyMessage(request, 'xn--mller-kva.de').blocks, 'müller.de');
  });

  it("a domain card's Watch and a certificate card's Renew, Reissue and Watch name what they act on", async () => {
    const domain = await registrar.domains.get('regdesk-demo.de');
    assertLabelledButtons(domainCard(domain, Date.now()).blocks, 'regdesk-demo.de');
    const cert = await registrar.tls.get('cert-issued-recent');
    const card = certificateCard(cert);
    assertWithinBlockKitLimits(card, 'message');
    assertLabelledButtons(card.blocks, 'cert-issued-recent');
  });

  it('record pages say which zone they page through; a label never passes 75 characters', () => {
    const long = `${'a'.repeat(60)}.co.uk`;
    const page = recordsPage({
      domain: long,
      records: [],
      total: 120,
      page: 1,
      pages: 3,
    } as never);
    assertWithinBlockKitLimits(page, 'message');
    const labels = JSON.stringify(page.blocks).match(/"accessibility_label":"[^"]*"/g) ?? [];
    expect(labels.length).toBe(2);
    expect(labels.every((label) => label.length - '"accessibility_label":""'.length <= 75)).toBe(true);
  });
});

describe('accessible watch alerts', () => {
  it('each alert button names its item', async () => {
    const { alertMessage } = await import('../../src/features/watches/alert-blocks.js');
    const message = alertMessage(
      {
        mark: 'm',
        level: 'warn',
        text: 'expires soon',
        buttons: ['show', 'renew', 'reissue', 'verify'],
        cause: 'expiry',
        line: 'x',
      } as never,
      { kind: 'certificate', id: 'cert-issued-recent', channel: 'C1', addedBy: 'U1', addedAt: 0 },
    );
    assertWithinBlockKitLimits(message, 'message');
    assertLabelledButtons(message.blocks, 'cert-issued-recent');
  });
});
