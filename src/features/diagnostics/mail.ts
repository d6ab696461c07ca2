import { canonicalName, type DnsClient, type DnsRecord, sameName } from '../../dns/client.js';
import { type CheckResult, type Finding, finding, reasonOf } from './findings.js';

/** A TXT record's text: its character strings joined, as SPF (RFC 7208 §3.3) and DMARC read it. */
function textOf(record: DnsRecord): string | undefined {
  if (record.type !== 'TXT') return undefined;
  const parts = Array.isArray(record.data) ? record.data : [record.data];
  return parts.map((part) => (typeof part === 'string' ? part : part.toString('utf8'))).join('');
}

const txtAt = async (dns: DnsClient, name: string) =>
  (await dns.records(name, 'TXT')).flatMap((record) =>
    sameName(record.name, name) ? [textOf(record)].filter((text) => text !== undefined) : [],
  );

/**
 * Mail servers whose addresses one check looks up: a zone may list hundreds of MX records, and each
 * is two questions; a domain's real mail runs through a handful.
 */
const MAX_MX_HOSTS = 5;

/**
 * Mail: MX present and each mail server resolvable (a null MX, RFC 7505, says "no mail" and is
 * fine), exactly one SPF record, exactly one DMARC record, and the obvious breakage: a DMARC
 * `p=reject` while SPF is broken.
 */
export async function checkMail(dns: DnsClient, domain: string): Promise<CheckResult> {
  const findings: Finding[] = [];
  const result: CheckResult = { findings, notChecked: [] };
  try {
    const [mx, apex, dmarcTexts] = await Promise.all([
      dns.records(domain, 'MX', { mustExist: true }),
      txtAt(dns, domain),
      txtAt(dns, `_dmarc.${domain}`),
    ]);
    const exchanges = mx.flatMap((record) =>
      record.type === 'MX' && sameName(record.name, domain) ? [canonicalName(record.data.exchange)] : [],
    );
    const nullMx = exchanges.length === 1 && (exchanges[0] === '' || exchanges[0] === '.');
    if (exchanges.length === 0) {
      findings.push(
        finding('advice', 'mail', 'noMx', { name: domain }, domain, [
          { name: domain, type: 'MX', value: '0 .', where: 'zone' },
        ]),
      );
    } else if (!nullMx) {
      const hosts = [...new Set(exchanges)].slice(0, MAX_MX_HOSTS);
      const addresses = await Promise.all(hosts.map((host) => dns.addresses(host)));
      hosts.forEach((host, i) => {
        if (addresses[i]?.length === 0)
          findings.push(finding('broken', 'mail', 'mxNoAddress', { host }, host));
      });
    }

    const spf = apex.filter((text) => /^v=spf1(\s|$)/i.test(text.trim()));
    const dmarc = dmarcTexts.filter((text) => /^v=DMARC1\s*(;|$)/i.test(text.trim()));
    const spfBroken = spf.length > 1;
    if (spf.length === 0) {
      findings.push(
        finding('risky', 'mail', 'noSpf', { name: domain }, domain, [
          { name: domain, type: 'TXT', value: nullMx ? '"v=spf1 -all"' : '"v=spf1 mx -all"', where: 'zone' },
        ]),
      );
    } else if (spfBroken) {
      findings.push(
        finding(
          'broken',
          'mail',
          'manySpf',
          { name: domain, count: spf.length },
          domain,
          spf.slice(1).map((value) => ({
            action: 'remove' as const,
            name: domain,
            type: 'TXT',
            value: `"${value}"`,
            where: 'zone' as const,
          })),
        ),
      );
    }
    if (dmarc.length === 0) {
      findings.push(
        finding('risky', 'mail', 'noDmarc', { name: domain }, domain, [
          {
            name: `_dmarc.${domain}`,
            type: 'TXT',
            value: `"v=DMARC1; p=none; rua=mailto:postmaster@${domain}"`,
            where: 'zone',
          },
        ]),
      );
    } else if (dmarc.length > 1) {
      findings.push(finding('broken', 'mail', 'manyDmarc', { name: domain, count: dmarc.length }, domain));
    } else if (spfBroken && /(^|;)\s*p\s*=\s*reject\s*(;|$)/i.test(dmarc[0] ?? '')) {
      findings.push(finding('broken', 'mail', 'rejectWithBrokenSpf', { name: domain }, domain));
    }
  } catch (error) {
    result.notChecked.push({ what: { code: 'mail' }, why: reasonOf(error) });
  }
  return result;
}
