import type { doctor as en } from '../en/doctor.js';

/** `regdesk doctor` (Vertrag §1): eine Zeile je Prüfung, für das Terminal des Betriebs. */
export const doctor = {
  statusOk: 'ok',
  statusNote: 'Hinweis',
  statusFix: 'BEHEBEN',

  subjectConfiguration: 'Konfiguration',
  subjectRedis: 'Redis',
  subjectSlack: (p: { team: string }) => `Slack ${p.team}`,
  subjectSlackApp: 'Slack',
  subjectRegistrar: 'Registrar',
  subjectRegistrarKey: (p: { team: string }) => `Registrar-Schlüssel ${p.team}`,
  subjectResolvers: 'DNS-Resolver',
  subjectPort: (p: { variable: string; port: number }) => `${p.variable} ${p.port}`,

  configValid: (p: { slack: string; registrar: string }) =>
    `gültig (Slack: ${p.slack}; Registrar: ${p.registrar})`,
  configProblem: (p: { problem: string }) => p.problem,
  configPlaygroundRefused: (p: { reason: string }) =>
    `\`regdesk start\` würde den Start verweigern: ${p.reason}`,
  slackMode: (p: { mode: string }) =>
    ({
      socket: 'Socket Mode',
      'http-oauth': 'HTTP, per OAuth installiert',
      'http-single': 'HTTP, ein Workspace',
      unconfigured: 'keine, der Playground',
    })[p.mode] ?? p.mode,
  registrarEmbeddedName: 'die eingebaute Sandbox',
  registrarSandboxName: (p: { url: string }) => `die Sandbox unter ${p.url}`,
  registrarRemoteName: (p: { url: string }) => `${p.url}`,

  redisOwn:
    'keiner konfiguriert und keiner in Betrieb: `regdesk start` betreibt einen eigenen unter REGDESK_DATA_DIR; `regdesk web` und `regdesk worker` brauchen einen (REDIS_URL)',
  redisUnreachable: (p: { where: string; reason: string }) =>
    `unter ${p.where} nicht erreichbar (${p.reason}): Starten Sie ihn oder korrigieren Sie REDIS_URL (REDIS_CLUSTER_NODES, REDIS_SENTINELS, REDIS_PASSWORD)`,
  redisRefused: (p: { reason: string }) => p.reason,
  redisHealthy: (p: { version: string; where: string; persistence: string }) =>
    `Redis ${p.version} unter ${p.where}, maxmemory-policy noeviction, ${p.persistence}`,
  redisAppendOnly: 'dauerhaft (Append-only-Datei)',
  redisSnapshots: 'dauerhaft (Snapshots)',
  redisPersistenceNote: (p: { warning: string }) => p.warning,
  redisEphemeralAllowed:
    'speichert nichts dauerhaft, erlaubt durch REDIS_ALLOW_EPHEMERAL=1: Ein Neustart verliert alle Schlüssel, Richtlinien, Audit-Einträge und Freigaben',

  slackNone: 'keine Slack-App konfiguriert: `regdesk start` bietet stattdessen den Playground an',
  slackNoInstallations:
    'OAuth-Modus, aber noch kein Workspace hat Regdesk installiert: Öffnen Sie https://IHR-HOST/slack/install',
  slackHealthy: (p: { name: string; scopes: number }) =>
    `das Bot-Token funktioniert in ${p.name}, mit den ${p.scopes} Berechtigungen, die das Manifest verlangt`,
  slackScopesUnknown: (p: { name: string }) =>
    `das Bot-Token funktioniert in ${p.name}; Slack nannte seine Berechtigungen nicht (kein x-oauth-scopes-Header), daher wurden sie nicht verglichen`,
  slackTokenRefused: (p: { error: string }) =>
    `Slack weist das Bot-Token ab (${p.error}): Installieren Sie die App in diesem Workspace neu oder setzen Sie das aktuelle SLACK_BOT_TOKEN`,
  slackMissingScopes: (p: { scopes: string }) =>
    `dem Token fehlen Berechtigungen, die das Manifest verlangt: ${p.scopes}. Aktualisieren Sie das Manifest der App (\`regdesk manifest\`) und installieren Sie sie neu`,
  slackUnreachable: (p: { reason: string }) =>
    `die Web-API von Slack antwortete nicht (${p.reason}): Prüfen Sie das Netz, einen Proxy oder SLACK_API_URL`,
  slackInstallationUnreadable:
    'die gespeicherte Installation lässt sich mit VAULT_MASTER_KEY nicht öffnen: Setzen Sie VAULT_MASTER_KEY_PREVIOUS auf den Schlüssel, mit dem sie gespeichert wurde, und führen Sie `regdesk vault rotate` aus, oder installieren Sie die App neu',
  slackNotChecked: 'Installationen nicht geprüft: Sie liegen in Redis, und Redis antwortete nicht',

  registrarEmbedded: 'die eingebaute Sandbox läuft in Regdesk: kein Schlüssel zu prüfen',
  registrarKeyAccepted: (p: { url: string }) => `von ${p.url} angenommen`,
  registrarDemoKeyAccepted: (p: { url: string }) =>
    `kein Workspace hat einen eigenen Schlüssel; der Demo-Schlüssel der Sandbox wird von ${p.url} angenommen`,
  registrarKeyRejected: (p: { url: string }) =>
    `von ${p.url} abgewiesen (401): Ein Admin des Workspace setzt den aktuellen Schlüssel mit \`/domain key\` (oder auf der App-Startseite, Registrar-API-Schlüssel)`,
  registrarUnreachable: (p: { url: string }) =>
    `${p.url} antwortete nicht: Prüfen Sie REGFISH_API_URL, das Netz oder einen Proxy`,
  registrarKeyUnreadable:
    'der gespeicherte Schlüssel lässt sich mit VAULT_MASTER_KEY nicht öffnen: Setzen Sie VAULT_MASTER_KEY_PREVIOUS auf den Schlüssel, mit dem er gespeichert wurde, und führen Sie `regdesk vault rotate` aus, oder setzen Sie ihn mit `/domain key` neu',
  registrarNoKeys:
    'noch kein Workspace hat einen Schlüssel gespeichert: Ein Admin des Workspace setzt ihn mit `/domain key` (oder auf der App-Startseite, Registrar-API-Schlüssel)',
  registrarNotChecked: 'Schlüssel nicht geprüft: Sie liegen in Redis, und Redis antwortete nicht',
  registrarNoVaultKey: 'Schlüssel nicht geprüft: kein VAULT_MASTER_KEY, um sie zu öffnen',

  resolversValidating: (p: { servers: string }) => `${p.servers} antworten und validieren DNSSEC`,
  resolversNotValidating: (p: { servers: string }) =>
    `${p.servers} antworten, validieren DNSSEC aber nicht: Regdesk validiert selbst ab der Root-Zone; für validierende Resolver setzen Sie DNS_RESOLVERS (etwa unbound)`,
  resolversUnreachable: (p: { servers: string }) =>
    `${p.servers} beantworteten die SOA-Abfrage der Root-Zone nicht: Setzen Sie DNS_RESOLVERS auf Resolver, die dieser Rechner erreicht`,
  systemResolvers: 'die Resolver des Systems',

  portFree: 'frei: Regdesk kann dort lauschen',
  portRegdesk: 'Regdesk beantwortet dort /livez',
  portTaken: (p: { variable: string }) =>
    `von einem anderen Programm belegt, nicht von Regdesk: Beenden Sie es oder wählen Sie einen anderen ${p.variable}`,
  portChosenAtStart: 'ein freier Port, beim Start gewählt',

  summaryHolds: 'Alles in Ordnung.',
  summaryFix: (p: { count: number }) =>
    `${p.count === 1 ? 'Eine Sache' : `${p.count} Dinge`} zu beheben (die mit BEHEBEN markierten Zeilen); mehr in docs/troubleshooting.md.`,
  couldNotRun: (p: { reason: string }) => `regdesk doctor konnte nicht laufen: ${p.reason}`,
} satisfies typeof en;
