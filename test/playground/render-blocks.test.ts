import { describe, expect, it } from 'vitest';
import { ORDER_IDS } from '../../src/features/tls/ids.js';
import { formOf, ORDER_FIELDS, orderModal } from '../../src/features/tls/modals.js';
import type { PlaygroundSnapshot } from '../../src/playground/web/protocol.js';
import { renderBlocks } from '../../src/playground/web/render-blocks.js';
import { renderConfirm } from '../../src/playground/web/render-elements.js';
import type { RenderContext } from '../../src/playground/web/render-text.js';
import {
  actionValue,
  collectState,
  missingRequired,
  type Reading,
} from '../../src/playground/web/state-values.js';
import {
  applyEvent,
  completions,
  encodeMessage,
  threadOf,
  timeline,
  usageFor,
} from '../../src/playground/web/store.js';
import { elementsOf, textOf, type VElement } from '../../src/playground/web/vnode.js';
import { TLS_PRODUCTS } from '../../src/registrar/schemas/tls.js';

const ctx: RenderContext = {
  users: [
    {
      id: 'U0ADA',
      name: 'ada',
      realName: 'Ada Admin',
      isAdmin: true,
      isOwner: false,
      tz: 'UTC',
      locale: 'en-US',
    },
    {
      id: 'U0MEM',
      name: 'mel',
      realName: 'Mel Member',
      isAdmin: false,
      isOwner: false,
      tz: 'UTC',
      locale: 'en-US',
    },
  ],
  channels: [
    { id: 'C0GEN', name: 'general', kind: 'public', botMember: true, members: ['U0ADA', 'U0MEM'] },
    { id: 'C0OPS', name: 'ops', kind: 'public', botMember: false, members: ['U0ADA'] },
    { id: 'D0ADA', name: 'ada', kind: 'im', botMember: true, members: ['U0ADA'] },
  ],
  bot: { userId: 'UBOT', name: 'Regdesk' },
  viewer: { tz: 'UTC', locale: 'en-US' },
  now: Date.parse('2026-01-01T00:00:00Z'),
};

const find = (root: VElement, predicate: (e: VElement) => boolean) => elementsOf(root).filter(predicate);
const byClass = (root: VElement, name: string) =>
  find(root, (e) => (e.attrs.class ?? '').split(' ').includes(name));
const plain = (text: string) => ({ type: 'plain_text', text });
const option = (value: string, text: string) => ({ text: plain(text), value });

describe('Block Kit layout blocks', () => {
  const card = renderBlocks(
    ctx,
    [
      { type: 'header', text: plain(':lock: Approval needed') },
      {
        type: 'section',
        block_id: 'summary',
        text: { type: 'mrkdwn', text: '<@U0MEM> asks to *revoke* `www.example.com`' },
        fields: [
          { type: 'mrkdwn', text: '*Status*\nissued' },
          { type: 'plain_text', text: '*not bold*' },
        ],
        accessory: { type: 'button', action_id: 'card.share', value: 'x', text: plain('Share in channel') },
      },
      { type: 'divider' },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'Requested <!date^1767225600^{date_num}|x>' }] },
      {
        type: 'actions',
        block_id: 'decide',
        elements: [
          { type: 'button', action_id: 'approve', value: 'r1', style: 'primary', text: plain('Approve') },
          {
            type: 'button',
            action_id: 'deny',
            value: 'r1',
            style: 'danger',
            text: plain('Deny'),
            confirm: {
              title: plain('Deny?'),
              text: { type: 'mrkdwn', text: 'Deny *r1*?' },
              confirm: plain('Deny'),
              deny: plain('Keep'),
            },
          },
          { type: 'overflow', action_id: 'more', options: [option('a', 'Audit'), option('b', 'Withdraw')] },
        ],
      },
      { type: 'image', image_url: 'javascript:alert(1)', alt_text: 'chart' },
      {
        type: 'rich_text',
        elements: [{ type: 'rich_text_preformatted', elements: [{ type: 'text', text: 'AUTH-CODE-123' }] }],
      },
      { type: 'video', title: plain('x') },
    ],
    'message',
    '1700000000.000100',
  );

  it('renders header, section text, fields and accessory', () => {
    expect(textOf(find(card, (e) => e.tag === 'h2')[0] as VElement)).toBe('🔒 Approval needed');
    const section = byClass(card, 'section')[0] as VElement;
    expect(textOf(byClass(section, 'text')[0] as VElement)).toBe('@mel asks to revoke www.example.com');
    // A line break is a <br>, so the text runs together here.
    expect(byClass(section, 'field').map(textOf)).toEqual(['Statusissued', '*not bold*']);
    const share = byClass(section, 'accessory')[0]?.children[0] as VElement;
    expect(share.tag).toBe('button');
    expect(share.action).toMatchObject({ blockId: 'summary', dispatch: true });
    expect(textOf(share)).toBe('Share in channel');
  });

  it('renders divider, context with dates, rich text and says what it cannot show', () => {
    expect(find(card, (e) => e.tag === 'hr')).toHaveLength(1);
    expect(textOf(byClass(card, 'context')[0] as VElement)).toBe('Requested 2026-01-01');
    expect(textOf(find(card, (e) => e.tag === 'pre')[0] as VElement)).toBe('AUTH-CODE-123');
    expect(textOf(card)).toContain('[unsupported block: video]');
    expect(find(card, (e) => e.tag === 'img')).toHaveLength(0);
    expect(textOf(card)).toContain('[image: chart]');
  });

  it('renders actions with styles, confirm dialogs and overflow menus', () => {
    const buttons = find(byClass(card, 'actions')[0] as VElement, (e) => e.tag === 'button');
    expect(buttons.map((b) => [textOf(b), b.attrs.class])).toEqual([
      ['Approve', 'btn primary'],
      ['Deny', 'btn danger'],
    ]);
    expect(buttons[0]?.action?.blockId).toBe('decide');
    const deny = buttons[1]?.action?.element.confirm as Record<string, unknown>;
    const dialog = renderConfirm(ctx, deny);
    expect(textOf(dialog)).toBe('Deny?Deny r1?KeepDeny');
    const overflow = find(card, (e) => e.attrs['data-element-type'] === 'overflow')[0] as VElement;
    expect(overflow.children.map(textOf)).toEqual(['⋯', 'Audit', 'Withdraw']);
    expect(actionValue(overflow.action as never, ['b'])).toEqual({
      type: 'overflow',
      action_id: 'more',
      block_id: 'decide',
      selected_option: option('b', 'Withdraw'),
    });
  });

  it('gives blocks without ids a positional one, as Slack assigns one', () => {
    expect(byClass(card, 'divider')[0]?.attrs['data-block-id']).toBe('b2');
  });
});

describe('modal inputs and Slack’s view.state.values', () => {
  const view = orderModal('C0GEN');
  const form = renderBlocks(ctx, view.blocks, 'modal', 'V1');
  const controls = find(form, (e) => e.action !== undefined);
  const SKU = TLS_PRODUCTS[0]?.sku ?? '';

  it('renders every input with a label tied to its control', () => {
    const labels = find(form, (e) => e.tag === 'label' && e.attrs.for !== undefined);
    for (const label of labels) {
      expect(find(form, (e) => e.attrs.id === label.attrs.for)).toHaveLength(1);
    }
    expect(labels.map(textOf)).toContain('CSR (PEM)');
    expect(labels.map(textOf)).toContain('Additional names (SANs) (optional)');
    const csr = controls.find((c) => c.attrs['data-block-id'] === ORDER_IDS.csr) as VElement;
    expect(csr.tag).toBe('textarea');
    expect(csr.attrs.maxlength).toBe('3000');
    expect(csr.attrs.required).toBe('');
    const validity = controls.find((c) => c.attrs['data-block-id'] === ORDER_IDS.validity) as VElement;
    expect(validity.attrs).toMatchObject({ type: 'number', min: '1', max: '3650', step: '1' });
    const dcv = controls.find((c) => c.attrs['data-block-id'] === ORDER_IDS.dcv) as VElement;
    expect(find(dcv, (e) => e.tag === 'input').map((i) => [i.attrs.type, i.attrs.checked])).toEqual([
      ['radio', ''],
      ['radio', undefined],
    ]);
    // Inputs in modals report through state only; they do not send block_actions on change.
    expect(controls.every((c) => c.action?.dispatch === false)).toBe(true);
  });

  it('collects values in the exact shape Regdesk reads them', () => {
    const readings: Reading[] = controls.map((c) => {
      const block = c.attrs['data-block-id'];
      const values =
        block === ORDER_IDS.product
          ? [SKU]
          : block === ORDER_IDS.cn
            ? ['www.example.com']
            : block === ORDER_IDS.csr
              ? ['-----BEGIN CERTIFICATE REQUEST-----']
              : block === ORDER_IDS.dcv
                ? ['email']
                : block === ORDER_IDS.validity
                  ? ['90']
                  : [''];
      return { ref: c.action as NonNullable<VElement['action']>, values };
    });
    const state = collectState(readings);
    expect(state[ORDER_IDS.dcv]?.[`${ORDER_IDS.dcv}.value`]).toEqual({
      type: 'radio_buttons',
      selected_option: option('email', 'E-mail'),
    });
    expect(state[ORDER_IDS.validity]?.[`${ORDER_IDS.validity}.value`]).toEqual({
      type: 'number_input',
      value: '90',
    });
    expect(state[ORDER_IDS.sans]?.[`${ORDER_IDS.sans}.value`]).toEqual({ type: 'plain_text_input' });
    const form = formOf(state, ORDER_FIELDS);
    expect(form).toMatchObject({ commonName: 'www.example.com', dcv: 'email', validity: '90', sans: '' });
    expect(form.sku).toBe(SKU);
    expect(state[ORDER_IDS.product]?.[`${ORDER_IDS.product}.value`]?.selected_option?.value).toBe(SKU);
  });

  it('shows the error Regdesk answered under its input', () => {
    const withError = renderBlocks(
      { ...ctx, errors: { [ORDER_IDS.csr]: 'That is not a CSR.' } },
      view.blocks,
      'modal',
      'V1',
    );
    const block = find(
      withError,
      (e) => e.attrs['data-block-id'] === ORDER_IDS.csr && e.tag === 'div',
    )[0] as VElement;
    const error = byClass(block, 'error')[0] as VElement;
    expect(textOf(error)).toBe('That is not a CSR.');
    expect(error.attrs.role).toBe('alert');
    const control = find(block, (e) => e.tag === 'textarea')[0] as VElement;
    expect(control.attrs['aria-invalid']).toBe('true');
    expect(control.attrs['aria-describedby']).toBe(error.attrs.id);
  });

  it('lists the workspace’s people and channels in users and conversations selects', () => {
    const tree = renderBlocks(
      ctx,
      [
        {
          type: 'input',
          block_id: 'who',
          label: plain('Approvers'),
          element: { type: 'multi_users_select', action_id: 'who.value', initial_users: ['U0MEM'] },
        },
        {
          type: 'input',
          block_id: 'where',
          label: plain('Channel'),
          element: {
            type: 'conversations_select',
            action_id: 'where.value',
            filter: { include: ['public'] },
          },
        },
        {
          type: 'input',
          block_id: 'when',
          optional: true,
          label: plain('Date'),
          element: { type: 'datepicker', action_id: 'when.value', initial_date: '2026-02-01' },
        },
        {
          type: 'input',
          block_id: 'what',
          label: plain('Checks'),
          element: {
            type: 'checkboxes',
            action_id: 'what.value',
            options: [option('a', 'A'), option('b', 'B')],
          },
        },
      ],
      'modal',
      'V2',
    );
    const [who, where, when, what] = find(tree, (e) => e.action !== undefined);
    expect(who?.attrs.multiple).toBe('');
    expect(who?.children.map((o) => [textOf(o), (o as VElement).attrs.selected])).toEqual([
      ['Ada Admin', undefined],
      ['Mel Member', ''],
    ]);
    expect(where?.children.map(textOf)).toEqual(['Select an option', '#general', '#ops']);
    expect(when?.attrs).toMatchObject({ type: 'date', value: '2026-02-01' });
    const state = collectState([
      { ref: who?.action as never, values: ['U0ADA', 'U0MEM'] },
      { ref: where?.action as never, values: ['C0OPS'] },
      { ref: when?.action as never, values: [''] },
      { ref: what?.action as never, values: ['b'] },
    ]);
    expect(state).toEqual({
      who: { 'who.value': { type: 'multi_users_select', selected_users: ['U0ADA', 'U0MEM'] } },
      where: { 'where.value': { type: 'conversations_select', selected_conversation: 'C0OPS' } },
      when: { 'when.value': { type: 'datepicker' } },
      what: { 'what.value': { type: 'checkboxes', selected_options: [option('b', 'B')] } },
    });
  });
});

describe('required inputs, as Slack’s client keeps them', () => {
  const view = orderModal('C0GEN');
  const controls = find(renderBlocks(ctx, view.blocks, 'modal', 'V3'), (e) => e.action !== undefined);
  const read = (filled: Record<string, string>) =>
    collectState(
      controls.map((c) => ({
        ref: c.action as NonNullable<VElement['action']>,
        values: [filled[c.attrs['data-block-id'] ?? ''] ?? ''],
      })),
    );

  it('names every required input left empty, and no optional one', () => {
    const missing = missingRequired(view, read({}));
    expect(missing).toContain(ORDER_IDS.product);
    expect(missing).toContain(ORDER_IDS.cn);
    expect(missing).toContain(ORDER_IDS.csr);
    expect(missing).not.toContain(ORDER_IDS.sans);
  });

  it('lets a form through once every required input holds something', () => {
    const required = missingRequired(view, read({}));
    const everything = Object.fromEntries(
      required.map((block) => [
        block,
        block === ORDER_IDS.product ? (TLS_PRODUCTS[0]?.sku ?? '') : block === ORDER_IDS.dcv ? 'email' : '90',
      ]),
    );
    expect(missingRequired(view, read(everything))).toEqual([]);
  });
});

describe('the page’s workspace model', () => {
  const base: PlaygroundSnapshot = {
    workspace: { id: 'T1', name: 'Playground' },
    bot: { userId: 'UBOT', name: 'Regdesk' },
    users: ctx.users,
    channels: ctx.channels,
    messages: [],
    views: {},
    homes: {},
    commands: [
      { command: '/domain', description: 'Domains', usageHint: 'check NAME…' },
      { command: '/dns', description: 'DNS', usageHint: 'list DOMAIN' },
      { command: '/tls', description: 'Certificates', usageHint: 'order | revoke ID' },
    ],
    messageShortcuts: [],
    suggestedPrompts: {},
    threadStatuses: {},
    demoCsr: {
      callbackId: ORDER_IDS.modal,
      commonName: ORDER_IDS.cn,
      sans: ORDER_IDS.sans,
      csr: ORDER_IDS.csr,
    },
    registrar: {
      requests: [],
      account: { domains: [], certificates: [], organizations: [] },
      clockOffsetMs: 0,
    },
  };
  const message = (ts: string, extra: Partial<PlaygroundSnapshot['messages'][number]> = {}) => ({
    channel: 'C0GEN',
    ts,
    fromBot: true,
    reactions: [],
    files: [],
    ...extra,
  });

  it('shows ephemerals only to their user and keeps replies in their thread', () => {
    let snapshot = base;
    for (const m of [
      message('1.000001'),
      message('1.000002', { ephemeralTo: 'U0ADA' }),
      message('1.000003', { threadTs: '1.000001' }),
    ]) {
      snapshot = applyEvent(snapshot, { type: 'message', message: m });
    }
    snapshot = applyEvent(snapshot, {
      type: 'message_changed',
      message: message('1.000001', { text: 'new', edited: true }),
    });
    expect(timeline(snapshot, 'C0GEN', 'U0ADA').map((m) => m.ts)).toEqual(['1.000001', '1.000002']);
    expect(timeline(snapshot, 'C0GEN', 'U0MEM').map((m) => m.ts)).toEqual(['1.000001']);
    expect(threadOf(snapshot, 'C0GEN', '1.000001', 'U0MEM').map((m) => m.ts)).toEqual([
      '1.000001',
      '1.000003',
    ]);
    expect(snapshot.messages.find((m) => m.ts === '1.000001')?.edited).toBe(true);
    snapshot = applyEvent(snapshot, { type: 'message_deleted', channel: 'C0GEN', ts: '1.000002' });
    expect(timeline(snapshot, 'C0GEN', 'U0ADA').map((m) => m.ts)).toEqual(['1.000001']);
  });

  it('completes slash commands and shows the usage hint once one is chosen', () => {
    expect(completions(base.commands, '/d').map((c) => c.command)).toEqual(['/domain', '/dns']);
    expect(completions(base.commands, '/tls order')).toEqual([]);
    expect(completions(base.commands, 'hello')).toEqual([]);
    expect(usageFor(base.commands, '/tls order')?.usageHint).toBe('order | revoke ID');
  });

  it('turns @Regdesk and @handles into mentions and escapes what was typed', () => {
    expect(encodeMessage(base, '@Regdesk is <b>example.com</b> & @mel free? me@example.com')).toBe(
      '<@UBOT> is &lt;b&gt;example.com&lt;/b&gt; &amp; <@U0MEM> free? me@example.com',
    );
    expect(encodeMessage(base, '/domain check <x>')).toBe('/domain check <x>');
  });
});
