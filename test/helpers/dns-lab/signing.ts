import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dsDigest, keyTag } from '../../../src/dns/dnssec.js';
import { program } from './install.js';
import type { KnotServer } from './knot.js';
import { run } from './processes.js';

/** DNSSEC keys Knot made: the DS a parent carries, and a broken one for the zone with a bad DS. */

/** The DS of a signed zone's key (SHA-256 digest), as `<tag> <algorithm> 2 <hex>`. */
export async function readDs(server: KnotServer, zone: string): Promise<string> {
  const output = await run(program('keymgr'), ['-c', server.conf, zone, 'ds']);
  const match = /\sDS\s+(\d+\s+\d+\s+2\s+[0-9a-f]+)\s*$/im.exec(output);
  if (match?.[1] === undefined)
    throw new Error(`DNS lab: no SHA-256 DS for ${zone} in keymgr output:\n${output}`);
  return match[1].toLowerCase();
}

/**
 * The DS of a signed zone's key with digest type 1 (SHA-1), as `<tag> <algorithm> 1 <hex>`: keymgr
 * prints SHA-256 and SHA-384 only, so it is computed here from the DNSKEY keymgr prints.
 */
export async function readSha1Ds(server: KnotServer, zone: string): Promise<string> {
  const output = await run(program('keymgr'), ['-c', server.conf, zone, 'dnskey']);
  const match = /\sDNSKEY\s+257\s+3\s+(\d+)\s+([A-Za-z0-9+/=\s]+?)\s*$/m.exec(output);
  if (match?.[1] === undefined || match[2] === undefined)
    throw new Error(`DNS lab: no key-signing DNSKEY for ${zone} in keymgr output:\n${output}`);
  const key = {
    flags: 257,
    algorithm: Number(match[1]),
    key: Buffer.from(match[2].replace(/\s+/g, ''), 'base64'),
  };
  const digest = dsDigest(zone, key, 1) ?? Buffer.alloc(0);
  return `${keyTag(key)} ${key.algorithm} 1 ${digest.toString('hex')}`;
}

/**
 * Why this Knot cannot sign with RSA/SHA-1 (algorithm 5), or undefined when it can: keymgr is asked
 * to make such a key in a throwaway key store (a build without SHA-1 refuses the algorithm).
 */
export async function rsaSha1Unsupported(): Promise<string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'regdesk-rsasha1-probe-'));
  try {
    await run(program('keymgr'), [
      '-D',
      dir,
      'probe.',
      'generate',
      'algorithm=rsasha1',
      'ksk=yes',
      'size=1024',
    ]);
    return undefined;
  } catch (error) {
    return `this Knot cannot make RSA/SHA-1 keys (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Same key tag and algorithm, every digest nibble flipped: a DS that matches no DNSKEY. */
export function wrongDigest(ds: string): string {
  const [tag, algorithm, digestType, digest = ''] = ds.split(/\s+/);
  const flipped = [...digest].map((nibble) => (Number.parseInt(nibble, 16) ^ 0xf).toString(16)).join('');
  return `${tag} ${algorithm} ${digestType} ${flipped}`;
}
