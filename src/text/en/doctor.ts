import type { TextArea } from './area.js';

/**
 * `regdesk doctor` (contract §1): one line per check, for an operator's terminal, and what to do
 * about each that fails. docs/troubleshooting.md explains every line.
 */
export const doctor = {
  // The status at the start of each line
  statusOk: 'ok',
  statusNote: 'note',
  statusFix: 'FIX',

  // What each line is about
  subjectConfiguration: 'configuration',
  subjectRedis: 'Redis',
  subjectSlack: (p: { team: string }) => `Slack ${p.team}`,
  subjectSlackApp: 'Slack',
  subjectRegistrar: 'registrar',
  subjectRegistrarKey: (p: { team: string }) => `registrar key ${p.team}`,
  subjectResolvers: 'DNS resolvers',
  subjectPort: (p: { variable: string; port: number }) => `${p.variable} ${p.port}`,

  // Configuration
  configValid: (p: { slack: string; registrar: string }) =>
    `valid (Slack: ${p.slack}; registrar: ${p.registrar})`,
  configProblem: (p: { problem: string }) => p.problem,
  configPlaygroundRefused: (p: { reason: string }) => `\`regdesk start\` would refuse to start: ${p.reason}`,
  slackMode: (p: { mode: string }) =>
    ({
      socket: 'Socket Mode',
      'http-oauth': 'HTTP, installed by OAuth',
      'http-single': 'HTTP, one workspace',
      unconfigured: 'none, the playground',
    })[p.mode] ?? p.mode,
  registrarEmbeddedName: 'the embedded sandbox',
  registrarSandboxName: (p: { url: string }) => `the sandbox at ${p.url}`,
  registrarRemoteName: (p: { url: string }) => `${p.url}`,

  // Redis
  redisOwn:
    'none configured and none running: `regdesk start` runs its own under REGDESK_DATA_DIR; `regdesk web` and `regdesk worker` need one (REDIS_URL)',
  redisUnreachable: (p: { where: string; reason: string }) =>
    `not reachable at ${p.where} (${p.reason}): start it, or correct REDIS_URL (REDIS_CLUSTER_NODES, REDIS_SENTINELS, REDIS_PASSWORD)`,
  redisRefused: (p: { reason: string }) => p.reason,
  redisHealthy: (p: { version: string; where: string; persistence: string }) =>
    `Redis ${p.version} at ${p.where}, maxmemory-policy noeviction, ${p.persistence}`,
  redisAppendOnly: 'persistent (append-only file)',
  redisSnapshots: 'persistent (snapshots)',
  redisPersistenceNote: (p: { warning: string }) => p.warning,
  redisEphemeralAllowed:
    'persists nothing, accepted by REDIS_ALLOW_EPHEMERAL=1: a restart loses every key, policy, audit entry and approval',

  // Slack
  slackNone: 'no Slack app configured: `regdesk start` serves the playground instead',
  slackNoInstallations:
    'OAuth mode, but no workspace has installed Regdesk yet: open https://YOUR-HOST/slack/install',
  slackHealthy: (p: { name: string; scopes: number }) =>
    `the bot token works in ${p.name}, with the ${p.scopes} scopes the manifest asks for`,
  slackScopesUnknown: (p: { name: string }) =>
    `the bot token works in ${p.name}; Slack did not say its scopes (no x-oauth-scopes header), so they were not compared`,
  slackTokenRefused: (p: { error: string }) =>
    `Slack refuses the bot token (${p.error}): reinstall the app in this workspace, or set the current SLACK_BOT_TOKEN`,
  slackMissingScopes: (p: { scopes: string }) =>
    `the token lacks scopes the manifest asks for: ${p.scopes}. Update the app's manifest (\`regdesk manifest\`) and reinstall it`,
  slackUnreachable: (p: { reason: string }) =>
    `Slack's Web API did not answer (${p.reason}): check the network, a proxy, or SLACK_API_URL`,
  slackInstallationUnreadable:
    'the stored installation cannot be opened with VAULT_MASTER_KEY: set VAULT_MASTER_KEY_PREVIOUS to the key it was stored with and run `regdesk vault rotate`, or install the app again',
  slackNotChecked: 'installations not checked: they are stored in Redis, which did not answer',

  // The registrar
  registrarEmbedded: 'the embedded sandbox runs inside Regdesk: no key to check',
  registrarKeyAccepted: (p: { url: string }) => `accepted by ${p.url}`,
  registrarDemoKeyAccepted: (p: { url: string }) =>
    `no workspace has a key of its own; the sandbox's demo key is accepted by ${p.url}`,
  registrarKeyRejected: (p: { url: string }) =>
    `rejected by ${p.url} (401): a workspace admin sets the current key with \`/domain key\` (or App Home, Registrar API key)`,
  registrarUnreachable: (p: { url: string }) =>
    `${p.url} did not answer: check REGFISH_API_URL, the network or a proxy`,
  registrarKeyUnreadable:
    'the stored key cannot be opened with VAULT_MASTER_KEY: set VAULT_MASTER_KEY_PREVIOUS to the key it was stored with and run `regdesk vault rotate`, or set the key again with `/domain key`',
  registrarNoKeys:
    'no workspace has stored a key yet: a workspace admin sets one with `/domain key` (or App Home, Registrar API key)',
  registrarNotChecked: 'keys not checked: they are stored in Redis, which did not answer',
  registrarNoVaultKey: 'keys not checked: no VAULT_MASTER_KEY to open them with',

  // DNS resolvers
  resolversValidating: (p: { servers: string }) => `${p.servers} answer and validate DNSSEC`,
  resolversNotValidating: (p: { servers: string }) =>
    `${p.servers} answer but do not validate DNSSEC: Regdesk validates from the root itself; for resolvers that validate, set DNS_RESOLVERS (unbound, for one)`,
  resolversUnreachable: (p: { servers: string }) =>
    `${p.servers} did not answer the root zone's SOA: set DNS_RESOLVERS to resolvers this host can reach`,
  systemResolvers: "the system's resolvers",

  // Ports
  portFree: 'free: Regdesk can listen there',
  portRegdesk: 'Regdesk answers /livez there',
  portTaken: (p: { variable: string }) =>
    `in use by another program, which is not Regdesk: stop it, or choose another ${p.variable}`,
  portChosenAtStart: 'any free port, chosen at start',

  // The last line
  summaryHolds: 'Everything holds.',
  summaryFix: (p: { count: number }) =>
    `${p.count === 1 ? 'One thing' : `${p.count} things`} to fix (the lines marked FIX); docs/troubleshooting.md says more.`,
  couldNotRun: (p: { reason: string }) => `regdesk doctor could not run: ${p.reason}`,
} satisfies TextArea;
