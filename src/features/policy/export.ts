import type { SubcommandContext } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import type { AuditLog } from '../audit/service.js';
import { documentOf } from './document.js';
import type { Roles } from './permissions.js';
import type { PolicyStore } from './policy.js';

/**
 * `/domain policy export`: the policy as the YAML document `regdesk policy set` saves (version 2),
 * uploaded into the admin's DM with Regdesk (it names people and channels), audited. Admins only,
 * like the modal.
 */
export async function exportPolicy(
  { policies, roles, audit }: { policies: PolicyStore; roles: Roles; audit: AuditLog },
  bolt: SubcommandContext['bolt'],
  respond: SubcommandContext['respond'],
): Promise<void> {
  const ref = workspaceOf(bolt.body);
  const user = bolt.body.user_id;
  const read = await policies.read(ref);
  const access = await roles.check(bolt.client, ref, user, 'policy', {
    policy: read,
    operation: 'policy.export',
  });
  if (!access.allowed) {
    await respond({ response_type: 'ephemeral', text: text.approvals.refused({ reason: access.reason }) });
    return;
  }
  const dm = (await bolt.client.conversations.open({ users: user })).channel?.id;
  if (dm === undefined) throw new Error('conversations.open returned no channel');
  await bolt.client.filesUploadV2({
    channel_id: dm,
    // The YAML library is loaded for this command only (yaml.ts).
    file: Buffer.from((await import('./yaml.js')).policyYaml(documentOf(read.policy)), 'utf8'),
    filename: `regdesk-policy-${ref.teamId}.yaml`,
    title: text.policy.policyExportTitle,
    initial_comment: text.policy.policyExportComment,
  });
  await audit.append(ref, { action: 'export', actor: user, outcome: text.policy.policyExportOutcome });
  await respond({ response_type: 'ephemeral', text: text.policy.policyExportSent });
}
