import { type FakeSlack, newTriggerId, type SlackCall } from './fake-slack.js';

/** A block_actions payload as Slack sends it for a button press in a channel message. */
export function buttonPress(
  actionId: string,
  value: string,
  options: { user?: string; team?: string; channel?: string; messageTs?: string; responseUrl?: string } = {},
): Record<string, unknown> {
  const team = options.team ?? 'T0001';
  return {
    type: 'block_actions',
    api_app_id: 'A0001',
    token: 'deprecated',
    trigger_id: newTriggerId(),
    user: { id: options.user ?? 'U0002', username: 'bob', name: 'bob', team_id: team },
    team: { id: team, domain: 'acme' },
    enterprise: null,
    is_enterprise_install: false,
    container: {
      type: 'message',
      message_ts: options.messageTs ?? '1.1',
      channel_id: options.channel ?? 'C0001',
      is_ephemeral: false,
    },
    channel: { id: options.channel ?? 'C0001', name: 'ops' },
    message: { type: 'message', ts: options.messageTs ?? '1.1', text: '', blocks: [] },
    response_url: options.responseUrl ?? 'http://127.0.0.1:9/response/none',
    actions: [
      {
        action_id: actionId,
        block_id: 'b',
        value,
        type: 'button',
        action_ts: '1.2',
        text: { type: 'plain_text', text: 'x' },
      },
    ],
  };
}

/** A block_actions payload for a button on the App Home tab: no channel and no response_url. */
export function homeButtonPress(actionId: string, value: string, user: string): Record<string, unknown> {
  const {
    channel: _channel,
    message: _message,
    response_url: _url,
    ...press
  } = buttonPress(actionId, value, {
    user,
  });
  return {
    ...press,
    user: { id: user, username: user, name: user, team_id: 'T0001' },
    container: { type: 'view', view_id: 'VHOME' },
    view: { id: 'VHOME', type: 'home', team_id: 'T0001', callback_id: '', hash: 'h', blocks: [] },
  };
}

/** One input block's submitted value, as `view.state.values` holds it (action id `<block>.value`). */
export function stateInput(
  blockId: string,
  value: Record<string, unknown>,
): Record<string, Record<string, unknown>> {
  return { [blockId]: { [`${blockId}.value`]: value } };
}

/** A view_submission payload with the given state values. */
export function viewSubmission(
  callbackId: string,
  values: Record<string, Record<string, unknown>>,
  options: { user?: string; team?: string; privateMetadata?: string; viewId?: string } = {},
): Record<string, unknown> {
  const team = options.team ?? 'T0001';
  return {
    type: 'view_submission',
    api_app_id: 'A0001',
    token: 'deprecated',
    trigger_id: newTriggerId(),
    user: { id: options.user ?? 'U0001', username: 'alice', name: 'alice', team_id: team },
    team: { id: team, domain: 'acme' },
    enterprise: null,
    is_enterprise_install: false,
    view: {
      id: options.viewId ?? 'V0001',
      team_id: team,
      type: 'modal',
      callback_id: callbackId,
      private_metadata: options.privateMetadata ?? '',
      hash: 'h',
      state: { values },
      blocks: [],
      title: { type: 'plain_text', text: 't' },
    },
    response_urls: [],
  };
}

/** All text a Slack message call carried (text and every block), for "was X shown?" assertions. */
export function messageText(call: SlackCall): string {
  return JSON.stringify([call.args.text ?? '', call.args.blocks ?? '', call.args.view ?? '']);
}

/** The value of the first button with `actionId` in the newest posted or updated message. */
export function buttonValue(slack: FakeSlack, actionId: string): string | undefined {
  for (const call of [...slack.calls].reverse()) {
    const match = new RegExp(`"action_id":"${actionId.replace(/\./g, '\\.')}","value":"([^"]+)"`).exec(
      JSON.stringify(call.args.blocks ?? []),
    );
    if (match) return match[1];
  }
  return undefined;
}
