import type { WebClient } from '@slack/web-api';

/** Workspace admins and owners, per `users.info` (needs `users:read`). */
export async function isWorkspaceAdmin(client: WebClient, userId: string): Promise<boolean> {
  const { user } = await client.users.info({ user: userId });
  return user?.is_admin === true || user?.is_owner === true || user?.is_primary_owner === true;
}

/** The user's Slack locale (e.g. `de-DE`), when Slack tells it. */
export async function userLocale(client: WebClient, userId: string): Promise<string | undefined> {
  const { user } = await client.users.info({ user: userId, include_locale: true });
  return user?.locale;
}
