/**
 * The key tag of a DNSKEY (RFC 4034 Appendix B): the number a DS record and resolvers name the key by,
 * so an approver can match the key against what the zone publishes. Written here because it is a
 * dozen lines of arithmetic over the RDATA; a DNS packet library would be a dependency for one sum.
 */
export function dnskeyKeyTag(
  flags: number,
  protocol: number,
  algorithm: number,
  publicKeyBase64: string,
): number {
  const key = Buffer.from(publicKeyBase64.replace(/\s+/g, ''), 'base64');
  const rdata = Buffer.concat([Buffer.from([flags >> 8, flags & 0xff, protocol, algorithm]), key]);
  // Algorithm 1 (RSA/MD5) has its own rule; it is deprecated and never offered by the registrar.
  let sum = 0;
  for (let i = 0; i < rdata.length; i++) sum += i % 2 === 0 ? (rdata[i] ?? 0) << 8 : (rdata[i] ?? 0);
  sum += (sum >> 16) & 0xffff;
  return sum & 0xffff;
}
