import { pinPrompts, setStatus, setTitle } from './assistant.js';
import { authTest, conversationInfo, openConversation, userInfo, userList } from './directory.js';
import { completeUpload, uploadUrl } from './files.js';
import { deleteMessageCall, postEphemeral, postMessage, react, updateMessage } from './messages.js';
import { oauthAccess } from './oauth.js';
import { connectToken, connectUserInfo } from './openid.js';
import type { SlackState } from './state.js';
import type { MethodHandler } from './types.js';
import { openView, publishHome, updateView } from './views.js';

/** The Web API methods the stand-in answers; another method is one more entry. */
export function webApiMethods(state: SlackState): Record<string, MethodHandler> {
  return {
    'auth.test': () => authTest(state),
    'chat.postMessage': (args) => postMessage(state, args),
    'chat.update': (args) => updateMessage(state, args),
    'chat.delete': (args) => deleteMessageCall(state, args),
    'chat.postEphemeral': (args) => postEphemeral(state, args),
    'views.open': (args) => openView(state, args, false),
    'views.push': (args) => openView(state, args, true),
    'views.update': (args) => updateView(state, args),
    'views.publish': (args) => publishHome(state, args),
    'users.info': (args) => userInfo(state, args),
    'users.list': (args) => userList(state, args),
    'reactions.add': (args) => react(state, args, true),
    'reactions.remove': (args) => react(state, args, false),
    'conversations.info': (args) => conversationInfo(state, String(args.channel ?? '')),
    'conversations.open': (args) => openConversation(state, args),
    'files.getUploadURLExternal': (args) => uploadUrl(state, args),
    'files.completeUploadExternal': (args) => completeUpload(state, args),
    'oauth.v2.access': (args) => oauthAccess(state, args),
    // Sign in with Slack (openid.ts): the code for a user token, and who that token belongs to.
    'openid.connect.token': (args) => connectToken(state, args),
    'openid.connect.userInfo': (args) => connectUserInfo(state, args),
    // docs.slack.dev usergroups.users.list: the members of a group a test defined; like other ids a
    // test did not define, any other group gets a lenient default (nobody in it).
    'usergroups.users.list': (args) => ({
      ok: true,
      users: state.usergroups.get(String(args.usergroup ?? '')) ?? [],
    }),
    // Slack's agent messaging (manifest `features.agent_view`; docs.slack.dev "Migrating to the Agent
    // messaging experience"): the app's threads are threads of conversations the bot is in, named by
    // their root message's ts.
    'assistant.threads.setStatus': (args) => setStatus(state, args),
    'assistant.threads.setSuggestedPrompts': (args) => pinPrompts(state, args),
    'assistant.threads.setTitle': (args) => setTitle(state, args),
  };
}
