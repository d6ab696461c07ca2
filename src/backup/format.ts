import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { z } from 'zod';

/**
 * The file `regdesk backup` writes and `regdesk restore` reads: JSON Lines, one JSON object a line.
 *
 *   {"format":"regdesk-backup","version":1,"prefix":"regdesk","takenAt":"…","regdesk":"0.9.0",
 *    "redis":"7.0.15","integrity":{"id":"…","seq":812,"epoch":1,"createdAt":"…"}}
 *   {"key":"regdesk:{ws:-:T0123}:policy","expiresAt":null,"dump":"<base64 of DUMP>"}
 *   …
 *   {"end":true,"keys":1234}
 *
 * The integrity hash travels in the header, not as a key: a restore never puts the copy's counter
 * and epoch back (src/backup/restore.ts). `expiresAt` is absolute (ms since the epoch), so a key
 * restored a day later keeps its deadline, not its remaining time. The last line's count tells a
 * whole file from a cut one. A DUMP payload opens only on a Redis as new as the one that made it.
 */

export const FORMAT = 'regdesk-backup';
export const VERSION = 1;

const Integrity = z.lazy(() =>
  z.object({
    id: z.string().min(1),
    seq: z.number().int(),
    epoch: z.number().int(),
    createdAt: z.string(),
  }),
);
export type BackupIntegrity = z.infer<typeof Integrity>;

const Header = z.lazy(() =>
  z.object({
    format: z.literal(FORMAT),
    version: z.number().int(),
    prefix: z.string().min(1),
    takenAt: z.string(),
    regdesk: z.string(),
    redis: z.string(),
    /** Null when the prefix held no integrity hash (a Redis no Regdesk process ever opened). */
    integrity: Integrity.nullable(),
  }),
);
export type BackupHeader = z.infer<typeof Header>;

const KeyLine = z.lazy(() =>
  z.object({
    key: z.string().min(1),
    expiresAt: z.number().int().nullable(),
    dump: z.string(),
  }),
);
export type BackupKey = z.infer<typeof KeyLine>;

const EndLine = z.lazy(() => z.object({ end: z.literal(true), keys: z.number().int() }));

export const headerLine = (header: BackupHeader): string => `${JSON.stringify(header)}\n`;
export const keyLine = (key: BackupKey): string => `${JSON.stringify(key)}\n`;
export const endLine = (keys: number): string => `${JSON.stringify({ end: true, keys })}\n`;

/**
 * Reads `path` and calls `onKey` for each key, in order; resolves to the header once the last line
 * confirmed the count. Throws for anything else, naming the line.
 */
export async function readBackup(
  path: string,
  onKey: (key: BackupKey, header: BackupHeader) => Promise<void>,
): Promise<BackupHeader> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY });
  let header: BackupHeader | undefined;
  let count = 0;
  let ended = false;
  let number = 0;
  for await (const line of lines) {
    number++;
    const wrong = (why: string) => new Error(`${path}, line ${number}: ${why}`);
    if (ended) throw wrong('there is more after the last line');
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw wrong('not JSON: the file is damaged or not a Regdesk backup');
    }
    if (header === undefined) {
      header = parseHeader(value, wrong);
      continue;
    }
    const end = EndLine.safeParse(value);
    if (end.success) {
      if (end.data.keys !== count) throw wrong(`it counts ${end.data.keys} keys, the file holds ${count}`);
      ended = true;
      continue;
    }
    const key = KeyLine.safeParse(value);
    if (!key.success) throw wrong('not a key of a Regdesk backup');
    count++;
    await onKey(key.data, header);
  }
  if (header === undefined) throw new Error(`${path} is empty: it is not a Regdesk backup.`);
  if (!ended) throw new Error(`${path} ends before its last line: the backup is incomplete.`);
  return header;
}

function parseHeader(value: unknown, wrong: (why: string) => Error): BackupHeader {
  const format = z.object({ format: z.literal(FORMAT), version: z.number().int() }).safeParse(value);
  if (!format.success) throw wrong('not a Regdesk backup (its first line names no "regdesk-backup" format)');
  if (format.data.version > VERSION) {
    throw wrong(
      `a backup of format ${format.data.version}, written by a newer Regdesk; this one reads format ${VERSION}`,
    );
  }
  const header = Header.safeParse(value);
  if (!header.success) throw wrong('the header of a Regdesk backup, but incomplete');
  return header.data;
}
