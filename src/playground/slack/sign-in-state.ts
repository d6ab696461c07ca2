/**
 * Sign in with Slack (OpenID Connect), as docs.slack.dev "Sign in with Slack" describes it: the
 * authorize page `/openid/connect/authorize` redirects back with a single-use `code`;
 * `openid.connect.token` trades it (with the app's client ID and secret, and the same `redirect_uri`)
 * for a user token and an `id_token`; `openid.connect.userInfo` with that token says who signed in.
 * The stand-in's page asks nobody: it consents as `member` (the playground's person), or as the
 * `user` query parameter a test names.
 */
export class SignInWithSlack {
  /** The app's credentials; unset, any client is accepted (tests that do not care). */
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** Who consents on the authorize page when the request names nobody. */
  member = 'U0ADA';
  /** Issued codes, single use. */
  readonly codes = new Map<
    string,
    { user: string; redirectUri: string; nonce?: string; expiresAt: number }
  >();
  /** Issued user tokens and whose they are. */
  readonly tokens = new Map<string, string>();
}
