// Who is outside the workspace (guests, external, deleted, bots): a Slack-profile judgement apart from the policy rules.
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { SlackUserProfile } from '../../slack/users.js';
import { text } from '../../text/index.js';

export type Outsider = 'guest' | 'external' | 'deleted' | 'bot';

/** Everyone of a kind, as a refusal names them ("Guests cannot …"). */
export function outsiderGroup(kind: Outsider): string {
  const groups: Record<Outsider, string> = {
    guest: text.approvals.outsiderGuests,
    external: text.approvals.outsiderExternal,
    deleted: text.approvals.outsiderDeleted,
    bot: text.approvals.outsiderBots,
  };
  return groups[kind];
}

/**
 * Why a user may not act at all, or undefined for a member in good standing (docs/requirements.md
 * R33). In Enterprise Grid a user's `team_id` is their home workspace, not necessarily this one, so
 * only outside a Grid does a different team mean an external (Slack Connect) user.
 */
export function outsiderKind(profile: SlackUserProfile, workspace: WorkspaceRef): Outsider | undefined {
  if (profile.isDeleted) return 'deleted';
  if (profile.isBot) return 'bot';
  if (profile.isGuest) return 'guest';
  // `is_stranger`: Slack's own word for a user of another organisation in a shared channel, which
  // holds in Enterprise Grid too, where the team comparison is skipped (teams of one grid differ).
  const external =
    profile.isStranger ||
    (workspace.enterpriseId === undefined &&
      profile.teamId !== undefined &&
      profile.teamId !== workspace.teamId);
  return external ? 'external' : undefined;
}
