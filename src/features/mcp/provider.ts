import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import {
  InvalidGrantError,
  InvalidTargetError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import {
  type OAuthClientInformationFull,
  OAuthClientInformationFullSchema,
  type OAuthTokenRevocationRequest,
  type OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { type Grant, type IssuedTokens, type McpStore, PendingSignIn } from './store.js';

/** The one scope Regdesk's tokens carry: what they may do is the policy's `mcp` and the person's rights. */
export const MCP_SCOPE = 'mcp';
/** A client's name as shown in the App Home and the audit: registration metadata, so bounded. */
const MAX_CLIENT_NAME = 80;

/** Who a verified token acts as: `AuthInfo.extra` as the tools read it. */
export interface Caller {
  grant: Grant;
}

export function callerOf(auth: AuthInfo | undefined): Caller | undefined {
  const grant = auth?.extra?.grant;
  return grant === undefined ? undefined : { grant: grant as Grant };
}

/** Where the person signs in: Slack's authorize page with this server's callback (sign-in.ts). */
export interface SlackSignInStart {
  redirectTo(signInId: string): string;
}

/**
 * Regdesk as the authorization server of its own MCP endpoint (MCP authorization 2025-06-18): the
 * SDK's handlers (`mcpAuthRouter`) parse requests, check PKCE (S256 only) and answer errors as
 * RFC 6749 says; this provider decides. The person is not asked here: they sign in with Slack
 * (`authorize` sends them there) and sign-in.ts issues the code once Slack said who they are.
 */
export class RegdeskOAuthProvider implements OAuthServerProvider {
  readonly clientsStore: OAuthRegisteredClientsStore;

  constructor(
    private readonly store: McpStore,
    /** The protected resource (RFC 8707): `<REGDESK_PUBLIC_URL>/mcp`; tokens are bound to it. */
    private readonly resource: URL,
    private readonly slack: SlackSignInStart,
  ) {
    this.clientsStore = {
      getClient: async (id) => {
        const parsed = OAuthClientInformationFullSchema.safeParse(await store.client(id));
        return parsed.success ? parsed.data : undefined;
      },
      registerClient: async (client) => {
        const named = {
          ...client,
          client_name: (client.client_name ?? '').trim().slice(0, MAX_CLIENT_NAME) || undefined,
        } as OAuthClientInformationFull;
        await store.putClient(named.client_id, named);
        return named;
      },
    };
  }

  /** A token for another resource is refused (RFC 8707 §2): this server's tokens serve only it. */
  #resourceOf(asked: URL | undefined): string {
    if (asked === undefined) return this.resource.href;
    if (asked.href.replace(/\/$/, '') !== this.resource.href.replace(/\/$/, ''))
      throw new InvalidTargetError('resource_not_served');
    return this.resource.href;
  }

  async authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: Parameters<OAuthServerProvider['authorize']>[2],
  ): Promise<void> {
    const pending = PendingSignIn.parse({
      clientId: client.client_id,
      redirectUri: params.redirectUri,
      codeChallenge: params.codeChallenge,
      ...(params.state === undefined ? {} : { state: params.state }),
      resource: this.#resourceOf(params.resource),
    });
    const signInId = await this.store.startSignIn(pending);
    res.redirect(302, this.slack.redirectTo(signInId));
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
    const issued = await this.store.peekCode(code);
    if (issued === undefined || issued.clientId !== client.client_id)
      throw new InvalidGrantError('invalid_code');
    return issued.codeChallenge;
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _codeVerifier?: string,
    redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    const issued = await this.store.takeCode(code);
    if (issued === undefined || issued.clientId !== client.client_id)
      throw new InvalidGrantError('invalid_code');
    // RFC 6749 §4.1.3: the same redirect_uri as the authorization request.
    if (redirectUri !== undefined && redirectUri !== issued.redirectUri)
      throw new InvalidGrantError('redirect_uri_mismatch');
    if (resource !== undefined && this.#resourceOf(resource) !== issued.resource)
      throw new InvalidTargetError('resource_not_served');
    const grant = await this.store.createGrant({
      workspace: issued.workspace,
      user: issued.user,
      clientId: client.client_id,
      clientName: client.client_name ?? client.client_id,
      resource: issued.resource,
    });
    return tokensOf(await this.store.issueTokens(grant));
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    _scopes?: string[],
    resource?: URL,
  ): Promise<OAuthTokens> {
    const grant = await this.store.takeRefresh(refreshToken);
    if (grant === undefined || grant.clientId !== client.client_id)
      throw new InvalidGrantError('invalid_refresh_token');
    if (resource !== undefined) this.#resourceOf(resource);
    return tokensOf(await this.store.issueTokens(grant));
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const found = await this.store.accessGrant(token);
    if (found === undefined) throw new InvalidTokenError('invalid_token');
    const caller: Caller = { grant: found.grant };
    return {
      token,
      clientId: found.grant.clientId,
      scopes: [MCP_SCOPE],
      expiresAt: Math.floor(found.expiresAt / 1000),
      resource: new URL(found.grant.resource),
      extra: { ...caller },
    };
  }

  /** RFC 7009: either token ends the whole grant; an unknown token is not an error. */
  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    const grant = await this.store.grantOfAnyToken(request.token);
    if (grant !== undefined && grant.clientId === client.client_id) await this.store.revokeGrant(grant);
  }
}

function tokensOf(issued: IssuedTokens): OAuthTokens {
  return {
    access_token: issued.accessToken,
    token_type: 'Bearer',
    expires_in: issued.expiresInSeconds,
    refresh_token: issued.refreshToken,
    scope: MCP_SCOPE,
  };
}
