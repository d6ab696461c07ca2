/** The only place the DNS feature's action ids live. */
export const DNS_IDS = {
  recordsPrev: 'dns.records.prev',
  recordsNext: 'dns.records.next',
} as const;
