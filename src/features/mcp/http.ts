import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebClient } from '@slack/web-api';
import type { McpSettings } from '../../config.js';
import type { Metrics } from '../../shared/metrics.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { webClientOptions } from '../../slack/app.js';
import { CONSENT_HEADERS, CONSENT_PATH, readConsentForm } from './consent.js';
import { callerOf, MCP_SCOPE, RegdeskOAuthProvider } from './provider.js';
import { type McpToolDeps, mcpServerFor } from './server.js';
import {
  decideConsent,
  finishSignIn,
  type SignInAnswer,
  SLACK_CALLBACK_PATH,
  slackAuthorizeUrl,
} from './sign-in.js';
import { McpStore } from './store.js';

export interface McpEndpointDeps extends McpToolDeps {
  settings: McpSettings;
  /** SLACK_API_URL: where `openid.connect.token` and `openid.connect.userInfo` are asked. */
  slackApiUrl?: string | undefined;
  metrics: Pick<Metrics, 'slackCalls'>;
}

export interface McpEndpoint {
  /** The HTTP front's extra routes: answers the MCP and OAuth paths, leaves the rest. */
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean>;
}

/**
 * The SDK's own limits on its OAuth endpoints (express-rate-limit, per client address, per process).
 * Behind a reverse proxy every agent shares the proxy's address, so the defaults (50 token requests in
 * 15 min, 20 registrations an hour) would stop a team's hourly refreshes: these leave room for
 * hundreds of agents. They guard load only: codes and tokens are 256 random bits, beyond guessing.
 * The proxy's X-Forwarded-For is not trusted for it (the limits are generous without it).
 */
const limit = (max: number, windowMs: number) => ({
  rateLimit: { max, windowMs, validate: { xForwardedForHeader: false } },
});

/** The paths this endpoint answers (the SDK's router serves the OAuth ones at the origin's root). */
const PATHS = new Set([
  '/mcp',
  SLACK_CALLBACK_PATH,
  CONSENT_PATH,
  '/authorize',
  '/token',
  '/register',
  '/revoke',
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
]);

/**
 * `/mcp` (Streamable HTTP) and its OAuth (MCP authorization 2025-06-18): RFC 9728 protected-resource
 * and RFC 8414 authorization-server metadata, RFC 7591 registration, authorization code with PKCE
 * S256, rotating refresh tokens, tokens bound to `<REGDESK_PUBLIC_URL>/mcp` (RFC 8707).
 *
 * Why an express sub-app on the node:http front: the SDK's OAuth handlers (`mcpAuthRouter`,
 * `requireBearerAuth`) are express middleware, and they carry the protocol's security-critical parts
 * (PKCE verification, client authentication, RFC 6749 error shapes, registration validation).
 * Re-implementing them over node:http would duplicate that code for no gain; mounting the SDK's own
 * app (`createMcpExpressApp`) for these paths only keeps Regdesk's front as it is. Express is loaded
 * only when MCP is configured, so a process without it pays nothing in memory (bench: idle RSS).
 */
export async function createMcpEndpoint(deps: McpEndpointDeps): Promise<McpEndpoint> {
  const [
    { createMcpExpressApp },
    router,
    { requireBearerAuth },
    { metadataHandler },
    { StreamableHTTPServerTransport },
  ] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/express.js'),
    import('@modelcontextprotocol/sdk/server/auth/router.js'),
    import('@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js'),
    import('@modelcontextprotocol/sdk/server/auth/handlers/metadata.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  ]);
  const { settings } = deps;
  const issuer = new URL(settings.publicUrl);
  const resource = new URL('/mcp', issuer);
  const store = new McpStore(deps.redis, deps.keys, deps.now);
  const provider = new RegdeskOAuthProvider(store, resource, {
    redirectTo: (signInId) => slackAuthorizeUrl(settings, signInId),
  });
  const webClient = (token?: string) =>
    new WebClient(token, webClientOptions(deps.slackApiUrl, deps.logger, deps.metrics));
  // Signed in to a workspace Regdesk serves (one app may be signed into from any workspace: in
  // single-workspace mode the bot's client answers for every team, so its own team is compared), and
  // a member in good standing there (R33).
  const mayAct = async (workspace: WorkspaceRef, user: string) => {
    const slack = await deps.slackFor(workspace);
    const bot = await slack.auth.test();
    const served =
      bot.team_id === workspace.teamId ||
      (workspace.enterpriseId !== undefined && bot.enterprise_id === workspace.enterpriseId);
    if (!served) return false;
    return (await deps.roles.check(slack, workspace, user, 'lookup', { operation: 'mcp.sign_in' })).allowed;
  };

  // The SDK's app: JSON bodies (100 kB), and for a loopback public URL (the playground) Host checks
  // against DNS rebinding; a public HTTPS URL is protected by the bearer tokens themselves.
  const app = createMcpExpressApp({ host: issuer.hostname });
  const resourceMetadataUrl = router.getOAuthProtectedResourceMetadataUrl(resource);
  app.use(
    router.mcpAuthRouter({
      provider,
      issuerUrl: issuer,
      resourceServerUrl: resource,
      scopesSupported: [MCP_SCOPE],
      resourceName: 'Regdesk',
      authorizationOptions: limit(600, 900_000),
      tokenOptions: limit(1_200, 900_000),
      clientRegistrationOptions: limit(200, 3_600_000),
      revocationOptions: limit(600, 900_000),
    }),
  );
  // RFC 9728 §3 puts the metadata at the resource's path; clients of earlier drafts ask the root.
  app.use(
    '/.well-known/oauth-protected-resource',
    metadataHandler({
      resource: resource.href,
      authorization_servers: [issuer.href],
      scopes_supported: [MCP_SCOPE],
      resource_name: 'Regdesk',
    }),
  );
  const signIn = {
    settings,
    store,
    webClient,
    mayAct,
    clientName: async (id: string) => {
      const client = await provider.clientsStore.getClient(id);
      return client?.client_name ?? id;
    },
    logger: deps.logger,
  };
  const answer = (res: ServerResponse, outcome: SignInAnswer) => {
    if ('page' in outcome) res.writeHead(200, CONSENT_HEADERS).end(outcome.page);
    else if ('redirect' in outcome)
      res.writeHead(302, { location: outcome.redirect, 'cache-control': 'no-store' }).end();
    else
      res
        .writeHead(outcome.status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: outcome.error }));
  };
  app.get(SLACK_CALLBACK_PATH, async (req, res) => {
    answer(res, await finishSignIn(signIn, new URL(req.originalUrl, issuer).searchParams));
  });
  app.post(CONSENT_PATH, async (req, res) => {
    answer(res, await decideConsent(signIn, await readConsentForm(req)));
  });
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl, expectedResource: resource });
  app.post('/mcp', bearer, async (req, res) => {
    const caller = callerOf(req.auth);
    if (caller === undefined) {
      res.status(401).end();
      return;
    }
    // Stateless (no session id): each POST is answered on its own, so any process of a scaled-out
    // `web` can take the next one, and every call is checked with the token it carries.
    const server = mcpServerFor(deps, caller.grant);
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  // Without sessions there is no stream to GET and nothing to DELETE (MCP transports, Streamable HTTP).
  app.all('/mcp', bearer, (_req, res) => {
    res.status(405).setHeader('allow', 'POST').json({ error: 'method_not_allowed' });
  });

  return {
    handle: async (req, res, path) => {
      if (!PATHS.has(path)) return false;
      app(req, res);
      return true;
    },
  };
}
