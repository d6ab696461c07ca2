import type { rdap as en } from '../en/rdap.js';
import type { Markup } from '../escape.js';
import { count, n } from './grammar.js';

const daysDative = (value: number): string => count(value, 'Tag', 'Tagen');
const inDays = (value: number): string => (value === 0 ? 'heute' : `in ${daysDative(value)}`);

/** Überwachte Domains bei anderen Registraren, über RDAP gelesen. */
export const rdap: typeof en = {
  source: 'über RDAP',
  sourceWithRegistrar: (p: { registrar: string }) => `über RDAP, ${p.registrar}`,
  transferLockOn: 'Transfersperre an',
  transferLockOff: '*keine Transfersperre*',

  watchedViaRdap: (p: { name: string; source: string; expiry: Markup; lock: string }) =>
    `:eyes: ${p.name} liegt bei einem anderen Registrar: überwacht ${p.source} · ${p.expiry} · ${p.lock}.`,
  notRegistered: (p: { names: string }) =>
    `Auch die RDAP-Dienste ihrer Registries kennen ${p.names} nicht: Sie scheinen nicht registriert zu sein.`,
  noService: (p: { names: string; tld: string }) =>
    `${p.names}: .${p.tld} hat keinen RDAP-Dienst; Ablauf unbekannt. Nur der Registrar, bei dem sie liegen, kennt ihn – sie werden daher nicht überwacht.`,
  couldNotCheck: (p: { names: string; reason: string }) =>
    `${p.names}: RDAP konnte nicht geprüft werden (${p.reason}), sie werden daher nicht überwacht. Versuchen Sie es später noch einmal.`,
  notAsked: (p: { names: string; max: number }) =>
    `RDAP wird je Befehl zu höchstens ${n(p.max)} Domains gefragt; nicht gefragt: ${p.names}. Fügen Sie sie mit einem weiteren Befehl hinzu.`,

  failureBootstrap: 'die RDAP-Bootstrap-Datei der IANA war nicht lesbar',
  failureTimeout: 'der RDAP-Server hat nicht rechtzeitig geantwortet',
  failureTooLarge: 'die Antwort des RDAP-Servers war zu groß',
  failureRedirects: 'der RDAP-Server hat zu oft umgeleitet',
  failureNotPublic: 'der RDAP-Server liegt nicht an einer öffentlichen Adresse',
  failureInsecure: 'der RDAP-Server bietet kein HTTPS',
  failureNetwork: 'der RDAP-Server war nicht erreichbar',
  failureStatus: 'der RDAP-Server hat mit einem Fehler geantwortet',
  failureMalformed: 'die Antwort des RDAP-Servers war fehlerhaft',
  failurePaced: 'gerade zu viele RDAP-Anfragen an diesen Server',
  failureRateLimited: 'der RDAP-Server bat zu warten (Ratenbegrenzung)',

  lookNoService: (p: { tld: string }) => `.${p.tld} hat keinen RDAP-Dienst; Ablauf unbekannt.`,
  lookNotFound: 'Der RDAP-Dienst der Registry kennt die Domain nicht mehr: Sie wurde womöglich gelöscht.',
  lookFailed: (p: { reason: string }) => `RDAP konnte nicht geprüft werden: ${p.reason}.`,

  expires: (p: { name: string; when: Markup; days: number; source: string }) =>
    `:calendar: ${p.name} läuft am ${p.when} ab (${inDays(p.days)}). Sie liegt bei einem anderen Registrar (${p.source}): Verlängern Sie sie dort.`,
  expired: (p: { name: string; when: Markup; source: string }) =>
    `:rotating_light: ${p.name} ist am ${p.when} *abgelaufen* (${p.source}). Verlängern Sie sie jetzt bei ihrem Registrar, sonst geht sie verloren.`,
  lapsingWhy: 'Die Registry führt sie als *pending delete* oder in der *Redemption Period*.',
  expiresLine: (p: { name: string; when: Markup; days: number; source: string }) =>
    `${p.name}: Ablauf ${p.when} (${inDays(p.days)}), ${p.source}`,
  expiredLine: (p: { name: string; when: Markup; source: string }) =>
    `${p.name}: abgelaufen ${p.when}, ${p.source}`,
  batchExpire: (p: { items: string; days: number }) =>
    `:calendar: ${p.items} bei anderen Registraren laufen innerhalb von ${daysDative(p.days)} ab. Verlängern Sie sie bei ihren Registraren.`,
  batchExpired: (p: { items: string }) =>
    `:rotating_light: ${p.items} bei anderen Registraren sind *abgelaufen*. Verlängern Sie sie jetzt bei ihren Registraren, sonst gehen sie verloren.`,
  transferLockRemoved: (p: { name: string }) => `${p.name}: Die Transfersperre wurde aufgehoben (RDAP).`,
  transferLockSet: (p: { name: string }) => `${p.name}: Die Transfersperre wurde gesetzt (RDAP).`,
  registrarChanged: (p: { name: string; from: string; to: string }) =>
    `${p.name}: liegt jetzt bei ${p.to} (vorher ${p.from}, RDAP).`,
};
