import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceFields, workspaceId } from '../../shared/workspace.js';

/**
 * What the MCP endpoint's OAuth keeps (contract §3 "Agents (MCP)"). Every secret it hands out (codes,
 * access and refresh tokens) is stored only as its SHA-256: they are 256 random bits, so a plain hash
 * is as strong as a slow one (OWASP Password Storage: slow hashes are for guessable secrets), and a
 * copy of Redis gives nobody a usable token. A grant is one person's consent for one client; its
 * tokens name it, so revoking the grant ends every token at once.
 */

/** Access tokens are short-lived (MCP authorization, "Token handling"): an hour. */
export const ACCESS_TOKEN_TTL_MS = 3_600_000;
/** Refresh tokens rotate at every use and lapse when unused for 30 days. */
export const REFRESH_TOKEN_TTL_MS = 30 * 86_400_000;
/** The sign-in with Slack and the code it ends in: ten minutes (RFC 6749 §4.1.2). */
export const SIGN_IN_TTL_MS = 600_000;
/** Registered clients that never got a grant are forgotten after a month. */
const CLIENT_TTL_MS = 30 * 86_400_000;

const Workspace = z.object({ teamId: z.string(), enterpriseId: z.string().optional() });

/** A sign-in under way: the client's authorization request, waiting for Slack's answer. */
export const PendingSignIn = z.object({
  clientId: z.string(),
  redirectUri: z.string(),
  codeChallenge: z.string(),
  state: z.string().optional(),
  resource: z.string(),
});
export type PendingSignIn = z.infer<typeof PendingSignIn>;

/** An authorization code: the sign-in, now with the person Slack vouched for. */
export const IssuedCode = PendingSignIn.extend({ workspace: Workspace, user: z.string() });
export type IssuedCode = z.infer<typeof IssuedCode>;

export const Grant = z.object({
  id: z.string(),
  workspace: Workspace,
  user: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  resource: z.string(),
  createdAt: z.number(),
});
export type Grant = z.infer<typeof Grant>;

const TokenRecord = z.object({ grant: z.string(), expiresAt: z.number() });

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresInSeconds: number;
}

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');
const secret = (kind: string) => `rd${kind}_${randomBytes(32).toString('base64url')}`;

export class McpStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
    private readonly now: () => number,
  ) {}

  #key(...parts: string[]): string {
    return this.keys.key('mcp', ...parts);
  }

  #grants(workspace: WorkspaceRef): string {
    return this.keys.key(`ws:${workspaceId(workspace)}`, 'mcp', 'grants');
  }

  async #json<T>(schema: z.ZodType<T>, raw: string | null): Promise<T | undefined> {
    if (raw === null) return undefined;
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  }

  async putClient(id: string, client: unknown): Promise<void> {
    await this.redis.set(this.#key('client', id), JSON.stringify(client), 'PX', CLIENT_TTL_MS);
  }

  async client(id: string): Promise<unknown> {
    const raw = await this.redis.get(this.#key('client', id));
    return raw === null ? undefined : JSON.parse(raw);
  }

  /** Keeps a client registered while it holds a grant. */
  async keepClient(id: string): Promise<void> {
    await this.redis.pexpire(this.#key('client', id), CLIENT_TTL_MS);
  }

  /** Starts a sign-in; the returned id is the `state` Slack sends back. */
  async startSignIn(pending: PendingSignIn): Promise<string> {
    const id = randomBytes(24).toString('base64url');
    await this.redis.set(this.#key('sign-in', hashOf(id)), JSON.stringify(pending), 'PX', SIGN_IN_TTL_MS);
    return id;
  }

  /** The sign-in of `state`, once: a replayed callback finds nothing. */
  async takeSignIn(state: string): Promise<PendingSignIn | undefined> {
    return this.#json(PendingSignIn, await this.redis.getdel(this.#key('sign-in', hashOf(state))));
  }

  /** Keeps a signed-in person's sign-in until they allow or deny the client (consent.ts). */
  async askConsent(code: IssuedCode): Promise<string> {
    const id = randomBytes(24).toString('base64url');
    await this.redis.set(this.#key('consent', hashOf(id)), JSON.stringify(code), 'PX', SIGN_IN_TTL_MS);
    return id;
  }

  /** The sign-in waiting for consent `id`, once: a second press finds nothing. */
  async takeConsent(id: string): Promise<IssuedCode | undefined> {
    return this.#json(IssuedCode, await this.redis.getdel(this.#key('consent', hashOf(id))));
  }

  async issueCode(code: IssuedCode): Promise<string> {
    const value = secret('c');
    await this.redis.set(this.#key('code', hashOf(value)), JSON.stringify(code), 'PX', SIGN_IN_TTL_MS);
    return value;
  }

  /** Reads a code without spending it (the token endpoint checks PKCE first). */
  async peekCode(code: string): Promise<IssuedCode | undefined> {
    return this.#json(IssuedCode, await this.redis.get(this.#key('code', hashOf(code))));
  }

  /** Spends a code: the second exchange of the same code finds nothing (RFC 6749 §4.1.2). */
  async takeCode(code: string): Promise<IssuedCode | undefined> {
    return this.#json(IssuedCode, await this.redis.getdel(this.#key('code', hashOf(code))));
  }

  async createGrant(grant: Omit<Grant, 'id' | 'createdAt'>): Promise<Grant> {
    const made: Grant = {
      ...grant,
      workspace: workspaceFields(grant.workspace),
      id: randomBytes(12).toString('hex'),
      createdAt: this.now(),
    };
    await this.redis.set(this.#key('grant', made.id), JSON.stringify(made));
    await this.redis.hset(this.#grants(made.workspace), made.id, JSON.stringify(made));
    await this.keepClient(made.clientId);
    return made;
  }

  /**
   * A grant while it holds: also listed under its workspace, whose keys an uninstall deletes
   * (install/service.ts), so uninstalling ends every agent's access too.
   */
  async grant(id: string): Promise<Grant | undefined> {
    const grant = await this.#json(Grant, await this.redis.get(this.#key('grant', id)));
    if (grant === undefined) return undefined;
    return (await this.redis.hexists(this.#grants(grant.workspace), id)) === 1 ? grant : undefined;
  }

  /** Every grant of the workspace (the App Home lists them per person; admins see all). */
  async grantsOf(workspace: WorkspaceRef): Promise<Grant[]> {
    const all = await this.redis.hvals(this.#grants(workspace));
    return all
      .map((raw) => Grant.safeParse(JSON.parse(raw)))
      .flatMap((parsed) => (parsed.success ? [parsed.data] : []))
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  /** Ends a grant: its tokens name it, so none of them is accepted any more. */
  async revokeGrant(grant: Grant): Promise<void> {
    await this.redis.del(this.#key('grant', grant.id));
    await this.redis.hdel(this.#grants(grant.workspace), grant.id);
  }

  /** A new access and refresh token for a grant (the old refresh token was spent by the caller). */
  async issueTokens(grant: Grant): Promise<IssuedTokens> {
    const accessToken = secret('a');
    const refreshToken = secret('r');
    const now = this.now();
    const access = { grant: grant.id, expiresAt: now + ACCESS_TOKEN_TTL_MS };
    const refresh = { grant: grant.id, expiresAt: now + REFRESH_TOKEN_TTL_MS };
    await this.redis.set(
      this.#key('access', hashOf(accessToken)),
      JSON.stringify(access),
      'PX',
      ACCESS_TOKEN_TTL_MS,
    );
    await this.redis.set(
      this.#key('refresh', hashOf(refreshToken)),
      JSON.stringify(refresh),
      'PX',
      REFRESH_TOKEN_TTL_MS,
    );
    return { accessToken, refreshToken, expiresInSeconds: ACCESS_TOKEN_TTL_MS / 1000 };
  }

  /** The grant an access token stands for, while both hold. */
  async accessGrant(token: string): Promise<{ grant: Grant; expiresAt: number } | undefined> {
    const record = await this.#json(TokenRecord, await this.redis.get(this.#key('access', hashOf(token))));
    if (record === undefined || record.expiresAt <= this.now()) return undefined;
    const grant = await this.grant(record.grant);
    return grant === undefined ? undefined : { grant, expiresAt: record.expiresAt };
  }

  /**
   * Spends a refresh token (rotation: each works once) and gives its grant, while it holds. A spent
   * token presented again means two parties hold it: the grant is ended (OAuth 2.1 §4.3.1, refresh
   * token reuse detection), so the thief's and the agent's tokens stop alike.
   */
  async takeRefresh(token: string): Promise<Grant | undefined> {
    const hash = hashOf(token);
    const record = await this.#json(TokenRecord, await this.redis.getdel(this.#key('refresh', hash)));
    if (record === undefined) {
      const reused = await this.redis.get(this.#key('spent', hash));
      const grant = reused === null ? undefined : await this.grant(reused);
      if (grant !== undefined) await this.revokeGrant(grant);
      return undefined;
    }
    await this.redis.set(this.#key('spent', hash), record.grant, 'PX', REFRESH_TOKEN_TTL_MS);
    if (record.expiresAt <= this.now()) return undefined;
    return this.grant(record.grant);
  }

  /** The grant behind either kind of token, without spending it (revocation, RFC 7009). */
  async grantOfAnyToken(token: string): Promise<Grant | undefined> {
    for (const kind of ['access', 'refresh']) {
      const record = await this.#json(TokenRecord, await this.redis.get(this.#key(kind, hashOf(token))));
      if (record !== undefined) return this.grant(record.grant);
    }
    return undefined;
  }
}
