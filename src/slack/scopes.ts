/**
 * The bot scopes Regdesk asks for: the allowlist the manifest must equal (docs/requirements.md R29), and the
 * scopes requested on OAuth install. Each one names what needs it.
 */
export const BOT_SCOPES = [
  'app_mentions:read', // questions to the assistant by @-mention
  'assistant:write', // agent messaging: suggested prompts in the Messages tab, thread status and titles
  'channels:read', // conversations.info: is a public channel shared with another organisation (assistant answers)
  'chat:write', // results, approval requests and their in-place updates
  'chat:write.public', // approval requests and /ask threads in channels the bot was not invited to
  'commands', // /domain, /dns, /tls, /ask
  'files:write', // /tls download uploads the certificate into the conversation
  'groups:read', // conversations.info for private channels, likewise
  'im:history', // message.im: questions in DMs and assistant threads with the bot
  'im:write', // auth code by DM when an ephemeral message cannot be delivered
  'reactions:write', // working → answered status on questions
  'usergroups:read', // approvers configured as a user group
  'users:read', // workspace admin/owner checks and the asker's locale
] as const;
