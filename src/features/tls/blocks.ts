import type { KnownBlock } from '@slack/types';
import { type TlsCertificate, type TlsOrganization, validationOf } from '../../registrar/index.js';
import { type Lifetime, lifeLeft } from '../../shared/days.js';
import { button, context, header, packLines, section, slackDate } from '../../slack/blocks.js';
import { resolveLink } from '../../slack/links.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { watchButton } from '../../slack/watch-button.js';
import { text } from '../../text/index.js';
import { PUBLISH_IDS } from '../publish/ids.js';
import { COMPLETE_IDS, REISSUE_IDS } from './ids.js';
import { certificateLifetime, orderedAt } from './lifetime.js';

const STATUS_ICON: Record<string, string> = {
  issued: ':white_check_mark:',
  pending: ':hourglass_flowing_sand:',
  revoked: ':no_entry:',
  'certificate-revoked': ':no_entry:',
  cancelled: ':heavy_multiplication_x:',
};

export { orderedAt } from './lifetime.js';

/** A labelled field of a card's section: the label in bold above its (escaped) value. */
const field = (label: string, value: string) => ({ type: 'mrkdwn' as const, text: `*${label}*\n${value}` });

/**
 * What is left of an issued certificate's lifetime at `now` (certificateLifetime, the one day count of
 * src/shared/days.ts), worded; undefined when the certificate is not issued or its dates are not known.
 */
export function lifeLeftLine(life: Lifetime | undefined, now: number): string | undefined {
  if (life === undefined) return undefined;
  const left = lifeLeft(life, now);
  return text.tls.lifeLeft({
    days: left.daysLeft,
    percent: left.percentLeft,
    lifeDays: left.lifeDays,
    expired: life.expiresAt <= now,
  });
}

/**
 * Certificate card; pending orders show the DNS records to publish in copyable form. `now` counts the
 * days left of an issued certificate; callers with an injected clock pass it.
 */
export function certificateCard(
  cert: TlsCertificate,
  now: number = Date.now(),
): { text: string; blocks: KnownBlock[] } {
  const title = text.tls.certificateTitle({ id: cert.id, commonName: cert.common_name });
  const blocks: KnownBlock[] = [
    header(title),
    {
      type: 'section',
      fields: [
        field(text.tls.statusLabel, `${STATUS_ICON[cert.status] ?? ''} ${escapeMrkdwn(cert.status)}`),
        field(text.tls.productLabel, escapeMrkdwn(cert.product ?? '?')),
        field(text.tls.orderStateLabel, escapeMrkdwn(cert.order_state ?? '—')),
        field(
          text.tls.pemAvailableLabel,
          cert.certificate_pem_available === true ? text.tls.yes : text.tls.no,
        ),
      ],
    },
    ...packLines([text.tls.namesHeading({ count: cert.dns_names.length }), ...cert.dns_names.map(codeSpan)]),
  ];
  if (cert.pending_message !== undefined && cert.pending_message !== '') {
    blocks.push(
      section(
        text.tls.pendingLine({
          message: escapeMrkdwn(cert.pending_message),
          reason: cert.pending_reason ? codeSpan(cert.pending_reason) : undefined,
        }),
      ),
    );
  }
  const validation = validationOf(cert);
  const records = validation?.dns_records ?? [];
  if (records.length > 0) {
    blocks.push(section(text.tls.publishRecords));
    blocks.push(
      ...packLines(records.map((r) => `\`\`\`${escapeMrkdwn(`${r.name} ${r.type} ${r.value}`)}\`\`\``)),
    );
  }
  // Only an absolute http(s) completion address becomes a link (docs/registrar-api.md §2.2: "address").
  const url = cert.completion_url ?? '';
  const completion = /^https?:\/\//.test(url) ? resolveLink(url, url) : undefined;
  if (cert.action_required === true) {
    blocks.push(section(text.tls.detailsMissing({ completionUrl: completion })));
  }
  const ordered = orderedAt(cert);
  const life = cert.status === 'issued' ? lifeLeftLine(certificateLifetime(cert), now) : undefined;
  blocks.push(
    context(
      text.tls.providerLine({
        provider: escapeMrkdwn(cert.provider ?? '?'),
        organization: codeSpan(cert.organization_id ?? text.tls.noOrganization),
      }),
      // docs/requirements.md R32: shown in each reader's time zone, and right however old the card.
      ...(ordered === undefined ? [] : [text.tls.orderedOn({ date: slackDate(ordered) })]),
      ...(life === undefined ? [] : [life]),
    ),
  );
  const actions = [];
  // A staged order waits for an organization (spec addendum §1 #9): completed from here (complete.ts).
  if (cert.status === 'pending' && cert.action_required === true && /^[A-Za-z0-9_.-]{1,100}$/.test(cert.id))
    actions.push(
      button(
        text.tls.completeButton,
        COMPLETE_IDS.button,
        cert.id,
        'primary',
        text.tls.completeButtonLabel({ id: cert.id }),
      ),
    );
  // Regdesk writes the records itself (features/publish), while the order waits for them.
  if (
    cert.status === 'pending' &&
    validation?.method === 'dns-cname-token' &&
    records.length > 0 &&
    /^[A-Za-z0-9_.-]{1,100}$/.test(cert.id)
  )
    actions.push(
      button(
        text.publish.button,
        PUBLISH_IDS.publish,
        cert.id,
        'primary',
        text.publish.buttonLabel({ id: cert.id }),
      ),
    );
  if (cert.status === 'issued')
    actions.push(
      button(
        text.tls.renewButton,
        REISSUE_IDS.renewButton,
        cert.id,
        undefined,
        text.tls.renewButtonLabel({ id: cert.id }),
      ),
    );
  if (cert.status === 'issued' || cert.status === 'certificate-revoked') {
    actions.push(
      button(
        text.tls.reissueButton,
        REISSUE_IDS.reissueButton,
        cert.id,
        undefined,
        text.tls.reissueButtonLabel({ id: cert.id }),
      ),
    );
  }
  // Watching tells before it expires or when it is revoked (docs/requirements.md R37).
  if (/^[A-Za-z0-9_.-]{1,100}$/.test(cert.id))
    actions.push(watchButton('certificate', cert.id, text.tls.watchButtonLabel({ id: cert.id })));
  if (actions.length > 0) blocks.push({ type: 'actions', elements: actions });
  return { text: escapeMrkdwn(text.tls.cardText({ title, status: cert.status })), blocks };
}

/** A channel message: `user` ordered or reissued `cert`, with its card (the thread then follows it). */
export function announcement(
  user: string,
  change: 'order' | 'reissue' | 'complete',
  cert: TlsCertificate,
): { text: string; blocks: KnownBlock[] } {
  const card = certificateCard(cert);
  const said = {
    order: { text: text.tls.orderedText, line: text.tls.orderedLine },
    reissue: { text: text.tls.reissuedText, line: text.tls.reissuedLine },
    complete: { text: text.tls.completedText, line: text.tls.completedLine },
  }[change];
  return {
    text: said.text({ user, card: card.text }),
    blocks: [section(said.line({ user })), ...card.blocks],
  };
}

export function organizationCard(org: TlsOrganization): { text: string; blocks: KnownBlock[] } {
  const title = text.tls.organizationTitle({ organization: org.organization });
  const f = (label: string, value: string | undefined) => field(label, escapeMrkdwn(value ?? '—'));
  return {
    text: escapeMrkdwn(text.tls.cardText({ title, status: org.status })),
    blocks: [
      header(title),
      {
        type: 'section',
        fields: [
          f(
            text.tls.statusLabel,
            text.tls.organizationStatus({ status: org.status, usable: org.usable_for_ordering === true }),
          ),
          f(text.tls.contactLabel, `${org.first_name ?? ''} ${org.last_name ?? ''}`.trim()),
          f(
            text.tls.addressLabel,
            [org.address, `${org.postal_code ?? ''} ${org.city ?? ''}`.trim(), org.country_code]
              .filter(Boolean)
              .join(', '),
          ),
          f(text.tls.phoneFieldLabel, org.phone),
          f(text.tls.emailLabel, org.email),
        ],
      },
      context(text.tls.organizationIdLine({ id: codeSpan(org.id) })),
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
      ? text.tls.organizationCreated({ name, id })
      : editedId === org.id
        ? text.tls.organizationUpdated({ name, id })
        : text.tls.organizationReplaced({ name, id, replaced: codeSpan(editedId) });
  const card = organizationCard(org);
  return { text: `${line} ${card.text}`, blocks: [section(line), ...card.blocks] };
}
