import { WATCH_BUTTON_IDS } from '../../slack/watch-button.js';

/** The only place the watches feature's action, block and callback ids live; tests import them from here. */
export const WATCH_IDS = {
  /** "Watch" on a domain card and on a certificate card (src/slack/watch-button.ts). */
  watchDomain: WATCH_BUTTON_IDS.domain,
  watchCertificate: WATCH_BUTTON_IDS.certificate,
  /** On an alert: the domain or certificate card (value `domain:NAME` or `certificate:ID`). */
  show: 'watch.show',
  /** On a Certificate Transparency alert: Mark as known (value `ZONE|TBS_SHA256`, known-issuance.ts). */
  markKnown: 'watch.ct.known',
  /** On a DNSSEC alert: what `/dns dnssec DOMAIN verify` does (value: the domain). */
  verifyDnssec: 'watch.dnssec.verify',
  /** Digest settings modal. */
  settingsModal: 'watch.settings.modal',
  channel: 'watch.settings.channel',
  cadence: 'watch.settings.cadence',
  hour: 'watch.settings.hour',
  timeZone: 'watch.settings.tz',
  /** In the settings modal and on App Home. */
  digestNow: 'watch.digest.now',
  openSettings: 'watch.settings.open',
} as const;
