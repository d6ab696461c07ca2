import { z } from 'zod';
import type { TlsCertificate } from '../../registrar/index.js';
import { type LeafIdentity, leafFromPem } from '../../served/leaf.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';
import { certificateExpiry } from '../tls/lifetime.js';

/**
 * What identifies each of the account's issued certificates (SPKI SHA-256, serial, dates), read from
 * the registrar's PEM download: the registrar's certificate object carries neither key nor serial
 * (docs/registrar-api.md §2.2). Kept per workspace so a look downloads a certificate at most once a
 * day; a reissue keeps its id, so the entry is also renewed whenever the status or end date changes.
 */

/**
 * One entry, compact (a workspace may keep thousands, bench/scenarios/served.ts): the stamp it was
 * read for, when, and `[spki, serial, notBefore, notAfter]`, or null when the download is no
 * certificate Regdesk can read (the sandbox's placeholder, say). The issuer is not kept: comparisons
 * use key, serial and dates only.
 */
const Entry = z.lazy(() =>
  z.tuple([z.string(), z.number(), z.tuple([z.string(), z.string(), z.number(), z.number()]).nullable()]),
);
type Entry = z.infer<typeof Entry>;

const leafOf = (entry: Entry): LeafIdentity | null =>
  entry[2] === null
    ? null
    : {
        spkiSha256: entry[2][0],
        serial: entry[2][1],
        notBefore: entry[2][2],
        notAfter: entry[2][3],
        issuer: '',
      };

/** An entry is read again after this; the hash itself lapses when nothing is written for as long. */
const REFRESH_MS = 24 * 3_600_000;
const TTL_S = 30 * 86_400;

/** What an entry is valid for: a reissue or renewal changes the status on the way, or the end date. */
export const identityStamp = (cert: TlsCertificate) => `${cert.status}:${certificateExpiry(cert) ?? ''}`;

export class CertificateIdentities {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
  ) {}

  #key(workspace: WorkspaceRef): string {
    return this.keys.key(`ws:${workspaceId(workspace)}`, 'watch', 'identities');
  }

  /**
   * The identity of `cert` while it is issued: from the cache when fresh, else from `download` (the
   * look's paced read). undefined when it is not issued or the download failed; null when the
   * download is not a readable certificate.
   */
  async of(
    workspace: WorkspaceRef,
    cert: TlsCertificate,
    download: () => Promise<string>,
    now: number,
  ): Promise<LeafIdentity | null | undefined> {
    if (cert.status !== 'issued') return undefined;
    const stamp = identityStamp(cert);
    const raw = await this.redis.hget(this.#key(workspace), cert.id);
    const cached = raw === null ? undefined : Entry.safeParse(safeJson(raw));
    if (cached?.success === true && cached.data[0] === stamp && now - cached.data[1] < REFRESH_MS)
      return leafOf(cached.data);
    let pem: string;
    try {
      pem = await download();
    } catch {
      return undefined;
    }
    const leaf = leafFromPem(pem) ?? null;
    await this.remember(workspace, cert.id, stamp, leaf, now);
    return leaf;
  }

  /** The last identity read for `id`, whatever its status now (a revoked certificate was issued once). */
  async last(workspace: WorkspaceRef, id: string): Promise<LeafIdentity | undefined> {
    const raw = await this.redis.hget(this.#key(workspace), id);
    const cached = raw === null ? undefined : Entry.safeParse(safeJson(raw));
    return cached?.success === true ? (leafOf(cached.data) ?? undefined) : undefined;
  }

  /** Stores what a look or a follower read, so the next look need not download it again. */
  async remember(
    workspace: WorkspaceRef,
    id: string,
    stamp: string,
    leaf: LeafIdentity | null,
    now: number,
  ): Promise<void> {
    const key = this.#key(workspace);
    await this.redis
      .multi()
      .hset(
        key,
        id,
        JSON.stringify([
          stamp,
          now,
          leaf === null ? null : [leaf.spkiSha256, leaf.serial, leaf.notBefore, leaf.notAfter],
        ] satisfies Entry),
      )
      .expire(key, TTL_S)
      .exec();
  }
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
