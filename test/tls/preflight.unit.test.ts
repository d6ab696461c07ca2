import { describe, expect, it } from 'vitest';
import { refusalText, validationKind } from '../../src/features/tls/preflight.js';
import { inLanguage } from '../../src/text/index.js';
import { LONGEST_REFUSALS, REFUSING_CA } from './preflight-fixtures.js';

/**
 * The certificate preflight's refusals (issue #45) are modal field errors as they are, so plain text:
 * at their longest inputs each stays within a text object's 3,000 characters, carries no mrkdwn, names
 * the record to set (or the DS records), and is worded in German too.
 */
describe('tls: the preflight’s refusals in words', () => {
  it.each(LONGEST_REFUSALS)('%s', (_, refusal) => {
    const en = inLanguage('en', () => refusalText(refusal, REFUSING_CA));
    const de = inLanguage('de', () => refusalText(refusal, REFUSING_CA));
    for (const said of [en, de]) {
      expect(said.length).toBeLessThanOrEqual(3_000);
      expect(said).not.toMatch(/[*_`<>]/);
      expect(said).toContain(refusal.name);
      if (refusal.check === 'caa') expect(said).toContain(`. CAA ${refusal.verdict.record.value}`);
      else expect(said).toContain(refusal.link.zone);
      if (refusal.check === 'dnssec' && refusal.link.reason === 'noMatchingKey')
        expect(said).toContain(`${refusal.link.zone}. DS ${refusal.link.ds[0]}`);
    }
    expect(de).not.toBe(en);
  });

  it('names the broken link: the zone, the parent holding its DS, and that CAs refuse', () => {
    const [, refusal] = LONGEST_REFUSALS[0] ?? [];
    if (refusal?.check !== 'dnssec') throw new Error('the first fixture is a DNSSEC refusal');
    const said = inLanguage('en', () => refusalText(refusal, REFUSING_CA));
    expect(said).toContain(
      `the DS for ${refusal.link.zone} in de. matches no DNSKEY of ${refusal.link.zone}`,
    );
    expect(said).toContain('CAs refuse to issue over a broken chain');
    const noKeys = { ...refusal, link: { ...refusal.link, ds: [] } };
    expect(inLanguage('en', () => refusalText(noKeys, REFUSING_CA))).toContain(
      'Publish the DS of the current key',
    );
  });

  it('judges CAA by the chosen way of validation, or by either while the form still lets one choose', () => {
    expect(validationKind('dns-cname-token')).toEqual(['dns']);
    expect(validationKind('email')).toEqual(['email']);
    expect(validationKind(undefined)).toEqual(['dns', 'email']);
    expect(validationKind('something-new')).toEqual(['dns', 'email']);
  });
});
