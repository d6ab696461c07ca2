import type { approvals as en } from '../en/approvals.js';
import type { Markup } from '../escape.js';
import { ACTS, NEGATED, stateWord } from './approval-words.js';

/** Wird der drückenden Person nach einem Schritt gesagt, den die öffentliche Nachricht nicht zeigen konnte (R30, R31). */
const NOT_SHOWN =
  ' Die Nachricht mit der Anfrage ließ sich nicht aktualisieren und zeigt womöglich noch Schaltflächen.';

/** Warum eine Anfrage aus der Zeit vor einem Datenvorfall geschlossen statt freigegeben oder ausgeführt wird (R40). */
const STALE_REQUEST =
  'Die Daten von Regdesk gingen nach dieser Anfrage verloren oder wurden aus einer älteren Kopie wiederhergestellt, daher lässt sich nicht feststellen, ob die Anfrage schon ausgeführt wurde. Sie wurde geschlossen; stellen Sie sie erneut, falls sie noch nötig ist.';

/** Was Regdesk über Freigaben sagt (siehe ../index.ts). */
export const approvals = {
  // Die Nachricht der Anfrage: Kopfzeile, Zeilen, Schaltflächen, Kontext (blocks.ts)
  headerPending: ':lock: Freigabe nötig',
  headerDecided: ':lock: Freigabeanfrage',
  asks: (p: { requester: string; channel: string | undefined; summary: string }) =>
    `<@${p.requester}> bittet${p.channel === undefined ? '' : ` in <#${p.channel}>`} um Freigabe: *${p.summary}*.`,
  approverGroupLine: (p: { group: string }) => `Freigebende: <!subteam^${p.group}>`,
  adminsAsked: (p: { toApprover: boolean; named: Markup | undefined; more: number }) =>
    (p.toApprover
      ? 'Sie werden als Admin oder Inhaber des Workspace gefragt, '
      : 'Freigebende: die Admins und Inhaber des Workspace, ') +
    'denn die Richtlinie nennt keine Freigebenden (legen Sie sie in `/domain policy` fest).' +
    (p.named === undefined
      ? ''
      : ` Ebenfalls gefragt: ${p.named}${p.more > 0 ? ` und ${p.more} weitere` : ''}.`),
  approveButton: 'Freigeben',
  approveButtonLabel: (p: { summary: string }) => `Freigeben: ${p.summary}`,
  approveConfirmTitle: 'Diese Aktion freigeben?',
  approveConfirmText: (p: { summary: string; undo: 'never' | 'revert' | undefined }) =>
    `Damit wird ausgeführt: *${p.summary}*.${p.undo === 'never' ? ' Das lässt sich nicht rückgängig machen.' : p.undo === 'revert' ? ' Das Ergebnis bietet *Rückgängig* an.' : ''}`,
  approveConfirmButton: 'Freigeben',
  approveConfirmCancel: 'Abbrechen',
  denyButton: 'Ablehnen',
  denyButtonLabel: (p: { summary: string }) => `Ablehnen: ${p.summary}`,
  withdrawButton: 'Zurückziehen',
  withdrawButtonLabel: (p: { summary: string }) => `Zurückziehen: ${p.summary}`,
  requestContext: (p: { requested: Markup; expires: Markup | undefined; needed: number; id: string }) =>
    `Angefragt ${p.requested}` +
    (p.expires === undefined ? '' : ` · läuft ab ${p.expires}`) +
    (p.needed === 0
      ? ' · läuft laut Richtlinie ohne Freigabe'
      : ` · braucht ${p.needed === 1 ? '1 Freigabe' : `${p.needed} Freigaben`}, nicht durch die anfragende Person`) +
    ` · \`${p.id}\``,
  messageFallback: (p: { summary: string; state: string }) =>
    `Freigabeanfrage: ${p.summary} (${stateWord(p.state)})`,

  // Der Zustand einer Anfrage, wie ihre Nachricht ihn zeigt (blocks.ts)
  statePending: (p: { remaining: number; approvedSoFar: Markup | undefined }) =>
    `:hourglass_flowing_sand: Wartet auf ${p.remaining === 1 ? 'eine weitere Freigabe' : `${p.remaining} weitere Freigaben`}` +
    (p.approvedSoFar === undefined ? '' : ` (bisher freigegeben von ${p.approvedSoFar})`),
  stateApproved: (p: { approvers: Markup }) =>
    `:white_check_mark: Freigegeben von ${p.approvers}. Wird ausgeführt …`,
  stateExecuting: (p: { approvers: Markup }) => `:gear: Freigegeben von ${p.approvers}. Wird ausgeführt …`,
  stateSucceeded: (p: { outcome: string; approvers: Markup }) =>
    `:white_check_mark: Erledigt. ${p.outcome} (freigegeben von ${p.approvers})`,
  stateFailed: (p: { outcome: string; approvers: Markup }) =>
    `:x: Fehlgeschlagen: ${p.outcome} (freigegeben von ${p.approvers})`,
  stateDenied: (p: { by: string; reason: string }) =>
    `:no_entry: Abgelehnt von <@${p.by}>${p.reason === '' ? '' : `: ${p.reason}`}`,
  stateExpired: ':alarm_clock: Ohne genügend Freigaben abgelaufen. Es wurde nichts ausgeführt.',
  stateWithdrawn: (p: { requester: string }) =>
    `:leftwards_arrow_with_hook: Von <@${p.requester}> zurückgezogen. Es wurde nichts ausgeführt.`,
  nobody: 'niemandem',

  // Die Erinnerung an die Freigebenden (blocks.ts)
  reminder: (p: { requester: string; summary: string; channel: string; id: string; expires: Markup }) =>
    `:alarm_clock: Erinnerung: <@${p.requester}> wartet noch auf Freigabe – *${p.summary}* ` +
    `(in <#${p.channel}>, \`${p.id}\`). Ablauf: ${p.expires}.`,

  // Ein AuthInfo-Code: die Direktnachricht an die anfragende Person und das Fenster, das ihn zeigt (blocks.ts)
  authCodeReady: (p: { domain: string }) => `:key: Ihr AuthInfo-Code für ${p.domain} ist bereit.`,
  authCodeOnlyYou: 'Nur Sie können ihn einblenden, innerhalb von 24 Stunden so oft wie nötig.',
  revealButton: 'Einblenden',
  revealButtonLabel: (p: { domain: string }) => `AuthInfo-Code für ${p.domain} einblenden`,
  revealTitle: 'AuthInfo-Code',
  revealClose: 'Schließen',
  revealIntro: (p: { domain: string }) => `AuthInfo-Code für *${p.domain}*:`,
  revealKeepPrivate:
    'Geben Sie ihn nicht weiter: Wer ihn kennt, kann die Domain zu einem anderen Registrar übertragen. Regdesk bewahrt ihn 24 Stunden auf.',

  // Das Formular zum Ablehnen (blocks.ts, actions.ts)
  denyTitle: 'Anfrage ablehnen',
  denySubmit: 'Ablehnen',
  denyQuestion: 'Möchten Sie diese Anfrage ablehnen? Die anfragende Person erfährt Ihren Grund.',
  denyReasonLabel: 'Grund',
  denyReasonPlaceholder: 'Erklären Sie der anfragenden Person, warum',
  denyReasonMissing: 'Nennen Sie der anfragenden Person einen Grund.',

  // Eine Freigabe anfragen (request.ts, requesting.ts)
  requested: (p: { channel: string; id: string }) =>
    `:lock: Freigabe in <#${p.channel}> angefragt: Eine andere freigebende Person muss freigeben, bevor etwas geschieht. ` +
    `Dort können Sie die Anfrage auch zurückziehen. (\`${p.id}\`)`,
  // Die Begründung der Richtlinie und „Notfall-Freigabe“ (request.ts, detours.ts)
  reasonNeeded:
    'Die Richtlinie verlangt eine Begründung von mindestens 10 Zeichen. Es wurde noch nichts angefragt.',
  reasonAsked: (p: { summary: string }) =>
    `Die Richtlinie verlangt eine Begründung, bevor *${p.summary}* angefragt wird (mindestens 10 Zeichen). Es wurde noch nichts angefragt.`,
  giveReasonButton: 'Begründung angeben …',
  reasonModalTitle: 'Warum?',
  reasonModalSubmit: 'Anfragen',
  reasonModalIntro: (p: { summary: string }) => `*${p.summary}*`,
  reasonLabel: 'Begründung',
  reasonHint: 'Erscheint in der Anfrage und im Audit-Protokoll. Mindestens 10 Zeichen.',
  reasonTooShort: (p: { min: number }) => `Bitte eine Begründung von mindestens ${p.min} Zeichen angeben.`,
  reasonStashGone:
    'Diese Anfrage wurde nicht gestellt: Sie hat zu lange auf ihre Begründung gewartet oder wurde schon gesendet. Bitte erneut anfragen.',
  breakGlassOffer:
    '*Notfall-Freigabe* fragt trotzdem an: Sie braucht eine Freigabe mehr als sonst, mindestens eine davon von einer Workspace-Admin oder einem Owner, und wird im Audit-Protokoll vermerkt.',
  breakGlassButton: 'Notfall-Freigabe',
  breakGlassConfirmTitle: 'Notfall-Freigabe?',
  breakGlassConfirmText: (p: { name: string }) =>
    `Damit wird während *${p.name}* trotzdem angefragt, mit einer Freigabe mehr als sonst (eine von einer Workspace-Admin oder einem Owner). Das wird im Audit-Protokoll vermerkt.`,
  breakGlassConfirmButton: 'Trotzdem anfragen',
  breakGlassLine:
    ':rotating_light: Während einer Sperre gestellt (*Notfall-Freigabe*): eine Freigabe mehr als sonst, mindestens eine davon von einer Workspace-Admin oder einem Owner.',
  breakGlassNeedsAdmin:
    'Diese Anfrage wurde während einer Sperre gestellt: Ihre letzte Freigabe muss von einer Workspace-Admin oder einem Owner kommen. Es wurde nichts vermerkt.',
  outcomeBreakGlassNoAdmin:
    'Nicht ausgeführt: Eine Anfrage aus einer Sperre braucht die Freigabe einer Workspace-Admin oder eines Owners, und keine der Freigebenden ist das jetzt.',
  justificationLine: (p: { reason: string }) => `*Begründung:* ${p.reason}`,
  stateAtOnce: ':zap: Die Richtlinie verlangt hierfür keine Freigabe: wird ausgeführt …',
  noApprovalNeeded: 'niemandem (die Richtlinie verlangt hierfür keine Freigabe)',
  // Eskalation bei 80 % der Laufzeit einer Anfrage (service.ts)
  escalation: (p: { summary: string; channel: Markup; remaining: number; expires: Markup; id: string }) =>
    `:rotating_light: *${p.summary}* in ${p.channel} braucht noch ${p.remaining === 1 ? '1 Freigabe' : `${p.remaining} Freigaben`} und läuft ${p.expires} ab. Sie erhalten das als Eskalationskontakt der Richtlinie. \`${p.id}\``,
  frozen: (p: { name: string; until: Markup }) =>
    `:snowflake: *${p.name}*: Diese Art von Aktion ist bis ${p.until} gesperrt. Es wurde nichts getan.`,
  notInDirectMessage:
    'Freigabeanfragen erscheinen dort, wo Freigebende sie sehen, nicht in einer Direktnachricht: Fragen Sie in einem Channel an ' +
    '(laden Sie @Regdesk mit `/invite @Regdesk` dorthin ein) oder legen Sie in `/domain policy` einen Freigabe-Channel fest.',
  alreadyAsked: (p: { id: string; channel: string | undefined }) =>
    `Das haben Sie bereits angefragt: Die Anfrage \`${p.id}\` wartet` +
    `${p.channel === undefined ? '' : ` in <#${p.channel}>`} noch auf Freigabe. Es wurde nichts Neues angefragt; ziehen Sie die bestehende Anfrage zurück, um erneut anzufragen.`,
  tooManyPending: (p: { max: number }) =>
    `Sie haben in diesem Workspace bereits ${p.max === 1 ? 'eine offene Freigabeanfrage' : `${p.max} offene Freigabeanfragen`}: ` +
    'Ziehen Sie eine zurück oder warten Sie, bis über eine entschieden ist, bevor Sie weitere stellen. Es wurde nichts angefragt.',
  quotaUsedUp: (p: { minutes: number }) =>
    `Das Limit des Registrars für diese Aktion ist ausgeschöpft; versuchen Sie es in ${p.minutes === 1 ? 'einer Minute' : `${p.minutes.toLocaleString('de-DE')} Minuten`} erneut.`,
  cannotPostInApprovalsChannel: (p: { channel: string }) =>
    `Regdesk kann im Freigabe-Channel <#${p.channel}> nicht posten: Laden Sie @Regdesk mit \`/invite @Regdesk\` dorthin ein ` +
    'oder legen Sie in `/domain policy` einen anderen Freigabe-Channel fest. Es wurde nichts angefragt.',

  // Entscheiden: was die drückende Person erfährt (service.ts)
  refused: (p: { reason: string }) => `:lock: ${p.reason}`,
  requestGone: 'Diese Freigabeanfrage gibt es nicht mehr.',
  staleRequest: STALE_REQUEST,
  staleNothingDone: `Es wurde nichts ausgeführt: ${STALE_REQUEST}`,
  cannotApproveOwn:
    'Sie können Ihre eigene Anfrage nicht freigeben; das muss eine andere freigebende Person tun.',
  alreadyApproved: 'Sie haben diese Anfrage bereits freigegeben.',
  alreadyInState: (p: { state: string }) => `Diese Anfrage ist bereits ${stateWord(p.state)}.`,
  gone: 'entfernt',
  expiredNothingDone: 'Diese Anfrage ist abgelaufen; es wurde nichts ausgeführt.',
  approvalRecordedNotShown: `Ihre Freigabe ist erfasst.${NOT_SHOWN}`,
  approvedNotShown: `Freigegeben: Die Aktion läuft, und die anfragende Person wird benachrichtigt.${NOT_SHOWN}`,
  denyRefused: (p: { reason: string }) =>
    `:lock: ${p.reason} Nur Freigebende können ablehnen; die anfragende Person kann die Anfrage zurückziehen.`,
  deniedNotShown: `Abgelehnt; die anfragende Person wird benachrichtigt.${NOT_SHOWN}`,
  onlyRequesterWithdraws: 'Nur die anfragende Person kann eine Anfrage zurückziehen.',
  withdrawnNotShown: `Zurückgezogen.${NOT_SHOWN}`,

  // Einen AuthInfo-Code einblenden (service.ts)
  revealGone: 'Diese Anfrage gibt es nicht mehr; fordern Sie einen neuen AuthInfo-Code an.',
  revealRefusedAudit: 'Einblenden abgelehnt: nicht die anfragende Person',
  revealNotRequester: ':lock: Nur die Person, die diesen AuthInfo-Code angefordert hat, kann ihn einblenden.',
  revealExpired:
    'Dieser AuthInfo-Code ist abgelaufen: Regdesk bewahrt einen Code 24 Stunden auf. Fordern Sie mit `/domain authcode` einen neuen an.',

  // Was die anfragende Person per Direktnachricht erfährt (service.ts, updates.ts)
  requestDenied: (p: { summary: string; user: string; reason: string }) =>
    `:no_entry: Ihre Anfrage „${p.summary}“ wurde von <@${p.user}> abgelehnt: ${p.reason}`,
  requestWithdrawn: (p: { summary: string }) =>
    `:leftwards_arrow_with_hook: Sie haben Ihre Anfrage „${p.summary}“ zurückgezogen; es wurde nichts ausgeführt.`,
  requestExpired: (p: { summary: string }) =>
    `:alarm_clock: Ihre Anfrage „${p.summary}“ ist ohne genügend Freigaben abgelaufen; es wurde nichts ausgeführt.`,
  requestDone: (p: { summary: string; outcome: string }) =>
    `:white_check_mark: Ihre Anfrage „${p.summary}“ ist erledigt: ${p.outcome}`,
  requestFailed: (p: { summary: string; outcome: string }) =>
    `:x: Ihre Anfrage „${p.summary}“ ist fehlgeschlagen: ${p.outcome}`,

  // Warum eine freigegebene Anfrage nicht lief: ihr Ergebnis als Fehlschlag (execution.ts, service.ts)
  outcomeInterrupted: 'bei der Ausführung unterbrochen; prüfen Sie die Ressource, bevor Sie erneut anfragen',
  outcomeTooLate:
    'die Aktion hätte erst mehr als eine Stunde nach Ablauf der Anfrage laufen können, daher wurde nichts ausgeführt; fragen Sie erneut an, falls sie noch nötig ist',
  outcomeParamsChanged: 'die gespeicherten Parameter weichen von den freigegebenen ab',
  outcomeQuotaSpent: 'das Tageslimit des Registrars für diese Aktion ist ausgeschöpft',
  outcomeUnexpected: 'unerwarteter Fehler; es wurde nichts weiter versucht',
  outcomeRequesterNoLonger: (p: { reason: string }) =>
    `die anfragende Person darf das nicht mehr anfragen (${p.reason})`,
  outcomeApproverNoLonger: 'eine freigebende Person darf nicht mehr freigeben',
  outcomeStricterPolicy: (p: { needed: number }) =>
    `die Richtlinie verlangt für diese Art von Aktion jetzt ${p.needed} Freigaben, mehr als diese Anfrage hat: Fragen Sie erneut an`,

  // Eine beschädigte gespeicherte Anfrage (record.ts)
  corruptRequest: (p: { id: string }) =>
    `Die gespeicherte Freigabeanfrage \`${p.id}\` ist beschädigt, daher lässt sich nichts mehr mit ihr tun. Fragen Sie die Aktion erneut an.`,

  // Wer was darf: die Handlungen und Personen, die Ablehnungen nennen (permissions.ts)
  actLookup: ACTS.lookup[0],
  actView: ACTS.view[0],
  actOrder: ACTS.order[0],
  actReissue: ACTS.reissue[0],
  actOrganization: ACTS.organization[0],
  actRequest: ACTS.request[0],
  actApprove: ACTS.approve[0],
  actExport: ACTS.export[0],
  actPolicy: ACTS.policy[0],
  actKey: ACTS.key[0],
  outsiderGuests: 'Gäste',
  outsiderExternal: 'Personen außerhalb dieses Workspace (Slack Connect)',
  outsiderDeleted: 'Deaktivierte Konten',
  outsiderBots: 'Bots',

  // Gründe für Ablehnungen (permissions.ts)
  policyUnreadableRefusal: (p: { act: string }) =>
    `Die Freigaberichtlinie dieses Workspace ließ sich nicht lesen, daher darf niemand ${p.act}, bis ein Admin ` +
    '`/domain policy` öffnet und sie erneut speichert. Es wurde nichts ausgeführt.',
  accountUnconfirmed:
    'Regdesk konnte Ihr Konto nicht bei Slack bestätigen und hat daher nichts ausgeführt. Versuchen Sie es gleich noch einmal.',
  outsiderCannot: (p: { who: string; act: string }) => {
    const negated = NEGATED.get(p.act);
    return negated === undefined
      ? `${p.who} sind davon ausgeschlossen: ${p.act}.`
      : `${p.who} können ${negated}.`;
  },
  onlyApproversMay: (p: { act: string }) =>
    `Laut Richtlinie dieses Workspace dürfen nur Freigebende ${p.act}.`,
  onlyListedMay: (p: { act: string }) =>
    `Nur die in der Richtlinie dieses Workspace aufgeführten Personen dürfen ${p.act}.`,
  onlyListedRequestersMay: (p: { act: string }) =>
    `Laut Richtlinie dieses Workspace dürfen nur aufgeführte anfragende Personen und Freigebende ${p.act}.`,
  notApproverAdminsApprove:
    'Sie gehören nicht zu den Freigebenden: Da die Richtlinie dieses Workspace keine nennt, geben die Admins und Inhaber des Workspace frei.',
  notApprover: 'Sie gehören laut Richtlinie dieses Workspace nicht zu den Freigebenden für heikle Aktionen.',
  onlyAdminsCan: (p: { act: string }) =>
    `Nur Admins und Inhaber des Workspace sowie Regdesk-Admins können ${p.act}.`,
} satisfies typeof en;
