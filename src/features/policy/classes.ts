/**
 * The classes of sensitive actions the policy governs one by one (contract §3 "Policy", `actions`).
 * Each sensitive operation declares its class next to its code (`defineOperation({ actionClass })`);
 * the policy never lists operations.
 *
 * - `revoke`: revoking or cancelling a certificate (`/tls revoke`, `/tls cancel`);
 * - `authcode`: revealing a domain's transfer auth code;
 * - `delegation`: changing a domain's nameservers (`/domain ns … set`);
 * - `dnssec`: turning DNSSEC off, setting external DNSSEC records;
 * - `record`: record changes, change sets and their reverts;
 * - `order`: certificate orders, reissues and completing a staged order;
 * - `publish`: writing a certificate's validation records.
 */
export const ACTION_CLASSES = [
  'revoke',
  'authcode',
  'delegation',
  'dnssec',
  'record',
  'order',
  'publish',
] as const;
export type ActionClass = (typeof ACTION_CLASSES)[number];
