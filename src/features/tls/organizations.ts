import type { App } from '@slack/bolt';
import type { KnownBlock, View } from '@slack/types';
import type { RegistrarClient, TlsOrganization } from '../../registrar/index.js';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { noticeModal } from '../../slack/blocks.js';
import { replyForError } from '../../slack/error-reply.js';
import { usage } from '../../slack/lookup.js';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { organizationCard } from './blocks.js';

const MODAL = 'tls.org.modal';
const FIELDS = [
  ['organization', 'Organization'],
  ['first_name', 'First name'],
  ['last_name', 'Last name'],
  ['address', 'Street address'],
  ['postal_code', 'Postal code'],
  ['city', 'City'],
  ['country_code', 'Country code (ISO 3166-1, e.g. DE)'],
  ['phone', 'Phone (e.g. +49 30 1234567)'],
  ['email', 'E-mail'],
] as const;
type Field = (typeof FIELDS)[number][0];
const EDIT_MODE = 'edit_mode';
const id = (field: string) => `tls.org.${field}`;

const regions = new Intl.DisplayNames(['en'], { type: 'region' });

/** Formats the spec leaves open (2.3, "not shown") are checked by common rules: ISO country, e-mail, phone. */
export function fieldError(field: Field, value: string): string | undefined {
  if (value.trim() === '') return 'Required.';
  if (field === 'country_code' && (!/^[A-Z]{2}$/.test(value) || regions.of(value) === value)) {
    return 'A two-letter ISO 3166-1 country code, e.g. DE or AT.';
  }
  if (field === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) return 'An e-mail address.';
  if (field === 'phone' && !/^\+?[0-9][0-9 ()./-]{5,24}$/.test(value))
    return 'A phone number, e.g. +49 30 1234567.';
  return undefined;
}

function orgModal(meta: { channel: string; orgId?: string }, current?: TlsOrganization): View {
  const blocks: KnownBlock[] = FIELDS.map(
    ([field, label]) =>
      ({
        type: 'input',
        block_id: id(field),
        label: { type: 'plain_text', text: label },
        element: {
          type: 'plain_text_input',
          action_id: `${id(field)}.value`,
          max_length: 200,
          ...(current?.[field] === undefined ? {} : { initial_value: String(current[field]) }),
        },
      }) as KnownBlock,
  );
  if (meta.orgId !== undefined) {
    const option = (value: string, text: string) => ({ text: { type: 'plain_text' as const, text }, value });
    blocks.push({
      type: 'input',
      block_id: id(EDIT_MODE),
      label: { type: 'plain_text', text: 'How to apply the change' },
      element: {
        type: 'radio_buttons',
        action_id: `${id(EDIT_MODE)}.value`,
        options: [
          option('update_provider', 'Update the organization at the provider'),
          option('create_replacement', 'Create a replacement organization'),
        ],
        initial_option: option('update_provider', 'Update the organization at the provider'),
      },
    });
  }
  return {
    type: 'modal',
    callback_id: MODAL,
    private_metadata: JSON.stringify(meta),
    title: {
      type: 'plain_text',
      text: meta.orgId === undefined ? 'New TLS organization' : 'Edit TLS organization',
    },
    submit: { type: 'plain_text', text: 'Save' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks,
  };
}

/** `/tls org new|show ID|edit ID`. `edit` opens at once (the trigger lasts 3 s), then fills the form in. */
export function orgCommand(
  deps: { registrarFor(workspace: WorkspaceRef): RegistrarClient },
  show: Subcommand['run'],
): Subcommand {
  return {
    name: 'org',
    usage: 'org new|show ID|edit ID',
    summary: 'TLS organizations for OV orders: create, show, edit',
    run: async (ctx) => {
      const [verb = '', orgId] = ctx.args;
      const channel = ctx.bolt.body.channel_id;
      if (verb.toLowerCase() === 'show') return show(ctx);
      if (verb.toLowerCase() === 'new') {
        await ctx.ack();
        await ctx.bolt.client.views.open({
          trigger_id: ctx.bolt.body.trigger_id,
          view: orgModal({ channel }),
        });
        return;
      }
      if (verb.toLowerCase() !== 'edit' || orgId === undefined || !/^[A-Za-z0-9_.-]{1,100}$/.test(orgId)) {
        return usage(ctx, '`/tls org new`, `/tls org show ID` or `/tls org edit ID`.');
      }
      await ctx.ack();
      const opened = await ctx.bolt.client.views.open({
        trigger_id: ctx.bolt.body.trigger_id,
        view: noticeModal('Edit TLS organization', ':hourglass_flowing_sand: Loading…', MODAL),
      });
      const viewId = opened.view?.id ?? '';
      try {
        const current = await deps.registrarFor(workspaceOf(ctx.bolt.body)).organizations.get(orgId);
        await ctx.bolt.client.views.update({ view_id: viewId, view: orgModal({ channel, orgId }, current) });
      } catch (error) {
        await ctx.bolt.client.views.update({
          view_id: viewId,
          view: noticeModal('Edit TLS organization', replyForError(error, ctx.logger).text, MODAL),
        });
      }
    },
  };
}

export function registerOrgModal(
  app: App,
  deps: { registrarFor(workspace: WorkspaceRef): RegistrarClient },
  logger: Logger,
): void {
  app.view(MODAL, async ({ ack, body, view, client }) => {
    const meta = JSON.parse(view.private_metadata || '{}') as { channel?: string; orgId?: string };
    if (meta.channel === undefined) {
      await ack();
      return;
    }
    const values = view.state.values;
    const read = (field: string) => (values[id(field)]?.[`${id(field)}.value`]?.value ?? '').trim();
    const errors: Record<string, string> = {};
    const data = {} as Record<Field, string>;
    for (const [field] of FIELDS) {
      const value = field === 'country_code' ? read(field).toUpperCase() : read(field);
      const problem = fieldError(field, value);
      if (problem !== undefined) errors[id(field)] = problem;
      data[field] = value;
    }
    if (Object.keys(errors).length > 0) {
      await ack({ response_action: 'errors', errors });
      return;
    }
    await ack();
    const registrar = deps.registrarFor(workspaceOf(body));
    const channel = meta.channel;
    try {
      const editMode = values[id(EDIT_MODE)]?.[`${id(EDIT_MODE)}.value`]?.selected_option?.value;
      const org =
        meta.orgId === undefined
          ? await registrar.organizations.create(data)
          : await registrar.organizations.update(meta.orgId, {
              ...data,
              ...(editMode === 'create_replacement' || editMode === 'update_provider'
                ? { edit_mode: editMode }
                : {}),
            });
      const card = organizationCard(org);
      await client.chat.postEphemeral({ channel, user: body.user.id, text: card.text, blocks: card.blocks });
    } catch (error) {
      await client.chat.postEphemeral({
        channel,
        user: body.user.id,
        text: replyForError(error, logger).text,
      });
    }
  });
}
