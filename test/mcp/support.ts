import { createServer } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';

/** The agent's own callback: never fetched, the test reads the code off the redirect to it. */
export const AGENT_CALLBACK = 'http://127.0.0.1:9/agent-callback';
export const CLIENT_ID = '1234.5678';
export const CLIENT_SECRET = 'oidc-secret-of-the-test-app';

/** A port free now, for REGDESK_PUBLIC_URL: the issuer must be known before the app listens. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The whole app with /mcp: single-workspace Slack, the app's client ID and secret for Sign in with Slack.
 * `env` adds to the environment (e.g. REGFISH_API_URL through a recorder), `sandbox` shapes the registrar.
 */
export async function startMcpHarness(
  more: { env?: Record<string, string>; sandbox?: SandboxOptions } = {},
): Promise<Harness & { base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const h = await startHarness({
    prepareSlack: (slack) => {
      slack.signIn.clientId = CLIENT_ID;
      slack.signIn.clientSecret = CLIENT_SECRET;
    },
    env: (slack) => ({
      PORT: String(port),
      REGDESK_PUBLIC_URL: base,
      SLACK_CLIENT_ID: CLIENT_ID,
      SLACK_CLIENT_SECRET: CLIENT_SECRET,
      SLACK_AUTHORIZE_URL: slack.authorizeUrl,
      ...more.env,
    }),
    ...(more.sandbox === undefined ? {} : { sandbox: more.sandbox }),
  });
  return Object.assign(h, { base });
}

/**
 * The SDK's OAuth client side, with the person's browser played by `fetch`: the authorization URL is
 * followed redirect by redirect (Regdesk → Slack's authorize page, as `user` → Regdesk's callback →
 * the agent's callback), and the code is taken from the last one.
 */
export class TestAgent implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  /** Where the last redirect to the agent's callback pointed (code, or error). */
  landed?: URL;

  /** The consent page Regdesk showed the person last (HTML), and the answer they give it. */
  consentPage = '';

  constructor(
    readonly name: string,
    readonly user: string,
    readonly decision: 'allow' | 'deny' = 'allow',
  ) {}

  get redirectUrl(): string {
    return AGENT_CALLBACK;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [AGENT_CALLBACK],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }
  tokens(): OAuthTokens | undefined {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    let next = url.href;
    for (let hop = 0; hop < 5; hop++) {
      if (next.startsWith(AGENT_CALLBACK)) {
        this.landed = new URL(next);
        return;
      }
      const target = new URL(next);
      // Slack's page consents as the person the test names.
      if (target.pathname === '/openid/connect/authorize') target.searchParams.set('user', this.user);
      let answer = await fetch(target, { redirect: 'manual' });
      if (answer.status === 200 && answer.headers.get('content-type')?.startsWith('text/html')) {
        // Regdesk's consent page: the person presses a button of its form.
        this.consentPage = await answer.text();
        const consent = /name="consent" value="([^"]+)"/.exec(this.consentPage)?.[1] ?? '';
        answer = await fetch(new URL('/mcp/oauth/consent', target), {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ consent, decision: this.decision }),
        });
      }
      const location = answer.headers.get('location');
      if (location === null) throw new Error(`no redirect from ${target.pathname}: ${answer.status}`);
      next = new URL(location, target).href;
    }
    throw new Error('too many redirects');
  }
}

/** Signs the agent in (the whole dance) and returns a connected SDK client. */
export async function connect(base: string, agent: TestAgent): Promise<Client> {
  const url = new URL('/mcp', base);
  const first = new StreamableHTTPClientTransport(url, { authProvider: agent });
  const client = new Client({ name: agent.name, version: '1.0.0' });
  try {
    await client.connect(first);
    return client;
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
  }
  const code = agent.landed?.searchParams.get('code');
  if (code === null || code === undefined)
    throw new Error(`sign-in ended without a code: ${agent.landed?.search ?? 'nowhere'}`);
  await first.finishAuth(code);
  const again = new Client({ name: agent.name, version: '1.0.0' });
  await again.connect(new StreamableHTTPClientTransport(url, { authProvider: agent }));
  return again;
}

/** A tool call's result as the agent sees it. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The JSON an error result carries. */
export function errorOf(result: CallToolResult): { error: string; message: string } {
  const first = result.content[0];
  return JSON.parse(first?.type === 'text' ? first.text : '{}') as { error: string; message: string };
}
