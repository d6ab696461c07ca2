import type { KnownBlock } from '@slack/types';
import type { TlsCertificate, TlsOrganization } from '../../registrar/index.js';
import { button, context, header, packLines, section } from '../../slack/blocks.js';
import { resolveLink } from '../../slack/links.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { REISSUE_IDS } from './ids.js';

const STATUS_ICON: Record<string, string> = {
  issued: ':white_check_mark:',
  pending: ':hourglass_flowing_sand:',
  revoked: ':no_entry:',
  'certificate-revoked': ':no_entry:',
  cancelled: ':heavy_multiplication_x:',
};

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
  blocks.push(
    context(
      `Provider ${escapeMrkdwn(cert.provider ?? '?')} · organization ${codeSpan(cert.organization_id ?? 'none')}`,
    ),
  );
  const actions = [];
  if (cert.status === 'issued') actions.push(button('Renew', REISSUE_IDS.renewButton, cert.id));
  if (cert.status === 'issued' || cert.status === 'certificate-revoked') {
    actions.push(button('Reissue', REISSUE_IDS.reissueButton, cert.id));
  }
  if (actions.length > 0) blocks.push({ type: 'actions', elements: actions });
  return { text: `${title} (${cert.status})`, blocks };
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
    text: `${title} (${org.status})`,
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
