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

/** Same key tag and algorithm, every digest nibble flipped: a DS that matches no DNSKEY. */
export function wrongDigest(ds: string): string {
  const [tag, algorithm, digestType, digest = ''] = ds.split(/\s+/);
  const flipped = [...digest].map((nibble) => (Number.parseInt(nibble, 16) ^ 0xf).toString(16)).join('');
  return `${tag} ${algorithm} ${digestType} ${flipped}`;
}
