import { describe, expect, it } from 'vitest';
import { caOfProducts, ProductsCa, REGISTRAR_CA } from '../../src/features/diagnostics/caa.js';

describe('the CA behind the registrar’s products (GET /tls/products)', () => {
  it('knows CAs by name, takes issuer domains as they are, and falls back to the v1.6.2 products’ CA', () => {
    expect(caOfProducts([{ ca: 'DigiCert' }, { ca: 'GeoTrust' }])).toEqual(REGISTRAR_CA);
    expect(caOfProducts([{ ca: "Let's Encrypt" }]).identifiers).toEqual(['letsencrypt.org']);
    expect(caOfProducts([{ ca: 'pki.example.net' }]).identifiers).toEqual(['pki.example.net']);
    const both = caOfProducts([{ ca: 'Sectigo' }, { ca: 'DigiCert' }]);
    expect(both.name).toBe('Sectigo / DigiCert');
    expect(both.identifiers).toEqual(expect.arrayContaining(['sectigo.com', 'digicert.com']));
    // No endpoint, no CA named, or only names Regdesk does not know: the v1.6.2 products (DigiCert).
    expect(caOfProducts(undefined)).toEqual(REGISTRAR_CA);
    expect(caOfProducts([{ ca: '' }, {}])).toEqual(REGISTRAR_CA);
    expect(caOfProducts([{ ca: 'Some Unknown CA' }])).toEqual(REGISTRAR_CA);
  });

  it('reads the products once an hour per workspace; a failed read is not kept', async () => {
    let t = 0;
    const cache = new ProductsCa(() => t);
    let reads = 0;
    const read = async () => {
      reads++;
      return [{ ca: "Let's Encrypt" }];
    };
    expect((await cache.for('ws1', read)).name).toBe("Let's Encrypt");
    await cache.for('ws1', read);
    expect(reads).toBe(1);
    await cache.for('ws2', read);
    expect(reads).toBe(2);
    t += 3_600_000;
    await cache.for('ws1', read);
    expect(reads).toBe(3);
    const failing = async (): Promise<never> => {
      throw new Error('registrar down');
    };
    expect(await cache.for('ws3', failing)).toEqual(REGISTRAR_CA);
    expect((await cache.for('ws3', read)).name).toBe("Let's Encrypt");
  });
});
