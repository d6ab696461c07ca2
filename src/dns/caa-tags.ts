/**
 * The CAA property tags in use: issue, issuewild, iodef (RFC 8659 §4.2–4.4), issuemail (RFC 9495),
 * issuevmc (the BIMI/VMC requirements), contactemail and contactphone (CA/Browser Forum BRs, appendix A).
 * What the record form offers (features/records) and what a critical flag may carry without forbidding
 * issuance (features/diagnostics, RFC 8659 §4.1).
 */
export const CAA_TAGS = [
  'issue',
  'issuewild',
  'iodef',
  'issuemail',
  'issuevmc',
  'contactemail',
  'contactphone',
] as const;
