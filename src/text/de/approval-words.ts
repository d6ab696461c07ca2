/** The German words for approvals' states and for the acts a refusal names (approvals.ts). */

/** Der Zustand einer Anfrage als Wort (`ApprovalState`); Unbekanntes bleibt, wie es ist. */
const STATE_WORDS: Readonly<Record<string, string>> = {
  pending: 'offen',
  approved: 'freigegeben',
  executing: 'in Ausführung',
  succeeded: 'erledigt',
  failed: 'fehlgeschlagen',
  denied: 'abgelehnt',
  expired: 'abgelaufen',
  withdrawn: 'zurückgezogen',
};
export const stateWord = (state: string): string => STATE_WORDS[state] ?? state;

/** Was eine Ablehnung nennt: die Handlung als Infinitiv, und verneint (die Stellung von „nicht“/„kein“ hängt vom Objekt ab). */
export const ACTS = {
  lookup: ['Regdesk nutzen', 'Regdesk nicht nutzen'],
  view: ['Freigaben und das Audit-Protokoll ansehen', 'Freigaben und das Audit-Protokoll nicht ansehen'],
  order: ['Zertifikate bestellen', 'keine Zertifikate bestellen'],
  reissue: ['Zertifikate neu ausstellen', 'keine Zertifikate neu ausstellen'],
  organization: [
    'TLS-Organisationen anlegen oder bearbeiten',
    'keine TLS-Organisationen anlegen oder bearbeiten',
  ],
  request: ['heikle Aktionen anfragen', 'keine heiklen Aktionen anfragen'],
  approve: ['Anfragen freigeben', 'keine Anfragen freigeben'],
  export: ['das Audit-Protokoll exportieren', 'das Audit-Protokoll nicht exportieren'],
  policy: ['die Freigaberichtlinie ändern', 'die Freigaberichtlinie nicht ändern'],
  key: ['den API-Schlüssel des Registrars ändern', 'den API-Schlüssel des Registrars nicht ändern'],
} as const;
export const NEGATED: ReadonlyMap<string, string> = new Map(Object.values(ACTS));
