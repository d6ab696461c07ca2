import type { KnownBlock } from '@slack/types';
import type { TlsCertificate, TlsOrganization } from '../../registrar/index.js';
import { button, context, header, packLines, section, slackDate } from '../../slack/blocks.js';
import { resolveLink } from '../../slack/links.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { watchButton } from '../../slack/watch-button.js';
import { REISSUE_IDS } from './ids.js';

const STATUS_ICON: Record<string, string> = {
  issued: ':white_check_mark:',
  pending: ':hourglass_flowing_sand:',
  revoked: ':no_entry:',
  'certificate-revoked': ':no_entry:',
  cancelled: ':heavy_multiplication_x:',
};

/**
 * When the order was placed. The spec's certificate object has no order date ("not shown"); an
 * `ordered_at` / `created_at` field, if the registrar sends one (unknown fields are kept), is used.
 */
export function orderedAt(cert: TlsCertificate): number | undefined {
  for (const name of ['ordered_at', 'created_at', 'order_date']) {
    const value = (cert as Record<string, unknown>)[name];
    if (typeof value === 'number') return value < 1e11 ? value * 1000 : value;
    if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return Date.parse(value);
  }
  return undefined;
}

/** Certificate card; pending orders show the DNS records to publish in copyable form. */
export function certificateCard(cert: TlsCertificate): { text: string; blocks: KnownBlock[] } {
  const title = `Certificate ${cert.id}: ${cert.common_name}`;
  const blocks: KnownBlock[] = [
    header(title),
    {
      type: 'section',
      fields: [
        { type: 'mrkdwn', text: `*Status*\n${STATUS_ICON[cert.status] ?? ''} ${escapeMrkdwn(cert.status)}` },
        { type: 'mrkdwn', text: `*Product*\n${escapeMrkdwn(cert.product ?? '?')}` },
        { type: 'mrkdwn', text: `*Order state*\n${escapeMrkdwn(cert.order_state ?? '—')}` },
        {
          type: 'mrkdwn',
          text: `*PEM available*\n${cert.certificate_pem_available === true ? 'yes' : 'no'}`,
        },
      ],
    },
    ...packLines([`*Names* (${cert.dns_names.length})`, ...cert.dns_names.map(codeSpan)]),
  ];
  if (cert.pending_message !== undefined && cert.pending_message !== '') {
    blocks.push(
      section(
        `*Pending:* ${escapeMrkdwn(cert.pending_message)} ${cert.pending_reason ? `(${codeSpan(cert.pending_reason)})` : ''}`,
      ),
    );
  }
  const records = cert.validation?.dns_records ?? [];
  if (records.length > 0) {
    blocks.push(section('*Publish these DNS records to validate:*'));
    blocks.push(
      ...packLines(records.map((r) => `\`\`\`${escapeMrkdwn(`${r.name} ${r.type} ${r.value}`)}\`\`\``)),
    );
  }
  // Only an absolute http(s) completion address becomes a link (docs/registrar-api.md §2.2: "address").
  const url = cert.completion_url ?? '';
  const completion = /^https?:\/\//.test(url) ? resolveLink(url, url) : undefined;
  if (cert.action_required === true) {
    blocks.push(
      section(
        `:warning: Details are missing before the order can be submitted.${completion === undefined ? '' : ` Complete them <${completion}|here>.`}`,
      ),
    );
  }
  const ordered = orderedAt(cert);
  blocks.push(
    context(
      `Provider ${escapeMrkdwn(cert.provider ?? '?')} · organization ${codeSpan(cert.organization_id ?? 'none')}`,
      // docs/requirements.md R32: shown in each reader's time zone, and right however old the card.
      ...(ordered === undefined ? [] : [`Ordered ${slackDate(ordered)}`]),
    ),
  );
  const actions = [];
  if (cert.status === 'issued')
    actions.push(
      button('Renew', REISSUE_IDS.renewButton, cert.id, undefined, `Renew certificate ${cert.id}`),
    );
  if (cert.status === 'issued' || cert.status === 'certificate-revoked') {
    actions.push(
      button('Reissue', REISSUE_IDS.reissueButton, cert.id, undefined, `Reissue certificate ${cert.id}`),
    );
  }
  // Watching tells before it expires or when it is revoked (docs/requirements.md R37).
  if (/^[A-Za-z0-9_.-]{1,100}$/.test(cert.id))
    actions.push(watchButton('certificate', cert.id, `Watch certificate ${cert.id}`));
  if (actions.length > 0) blocks.push({ type: 'actions', elements: actions });
  return { text: escapeMrkdwn(`${title} (${cert.status})`), blocks };
}

/** A channel message: `user` ordered or reissued `cert`, with its card (the thread then follows it). */
export function announcement(
  user: string,
  verb: 'ordered' | 'reissued',
  cert: TlsCertificate,
): { text: string; blocks: KnownBlock[] } {
  const card = certificateCard(cert);
  return {
    text: `<@${user}> ${verb} ${card.text}`,
    blocks: [section(`<@${user}> ${verb} a certificate.`), ...card.blocks],
  };
}

export function organizationCard(org: TlsOrganization): { text: string; blocks: KnownBlock[] } {
  const title = `Organization ${org.organization}`;
  const f = (label: string, value: string | undefined) => ({
    type: 'mrkdwn' as const,
    text: `*${label}*\n${escapeMrkdwn(value ?? '—')}`,
  });
  return {
    text: escapeMrkdwn(`${title} (${org.status})`),
    blocks: [
      header(title),
      {
        type: 'section',
        fields: [
          f('Status', `${org.status}${org.usable_for_ordering === true ? ', usable for orders' : ''}`),
          f('Contact', `${org.first_name ?? ''} ${org.last_name ?? ''}`.trim()),
          f(
            'Address',
            [org.address, `${org.postal_code ?? ''} ${org.city ?? ''}`.trim(), org.country_code]
              .filter(Boolean)
              .join(', '),
          ),
          f('Phone', org.phone),
          f('E-mail', org.email),
        ],
      },
      context(`ID ${codeSpan(org.id)}`),
    ],
  };
}

/**
 * What the person hears after saving an organization: always its id, which OV orders need; an edit
 * with `create_replacement` yields a new one, named as such.
 */
export function savedOrganization(
  org: TlsOrganization,
  editedId: string | undefined,
): { text: string; blocks: KnownBlock[] } {
  const name = `*${escapeMrkdwn(org.organization)}*`;
  const id = codeSpan(org.id);
  const line =
    editedId === undefined
      ? `:white_check_mark: Created TLS organization ${name} with ID ${id}. Use this ID in \`/tls order\`.`
      : editedId === org.id
        ? `:white_check_mark: Updated TLS organization ${name} (ID ${id}).`
        : `:white_check_mark: Created ${name} with ID ${id} to replace ${codeSpan(editedId)}. Use the new ID in \`/tls order\`.`;
  const card = organizationCard(org);
  return { text: `${line} ${card.text}`, blocks: [section(line), ...card.blocks] };
}
