import { type Config, ConfigError, loadConfig } from '../config.js';
import { KeySpace, type Redis } from '../shared/redis.js';
import { de } from '../text/de/index.js';
import { en } from '../text/en/index.js';
import { checkPorts, checkResolvers } from './network.js';
import { checkRedis } from './redis.js';
import { checkRegistrar } from './registrar.js';
import { type DoctorWords, exitCodeOf, type Finding, fix, ok, reasonOf, renderReport } from './report.js';
import { checkSlack } from './slack.js';
import { openVault } from './vault.js';

/** How the configuration is named on its line: the Slack mode and the registrar. */
function configFinding(config: Config, words: DoctorWords): Finding {
  const url = config.registrar.apiUrl;
  const registrar =
    config.registrar.kind === 'embedded-sandbox'
      ? words.registrarEmbeddedName
      : config.registrar.sandbox
        ? words.registrarSandboxName({ url })
        : words.registrarRemoteName({ url });
  return ok(
    words.subjectConfiguration,
    words.configValid({ slack: words.slackMode({ mode: config.slack.mode }), registrar }),
  );
}

/**
 * Every check of contract §1, in the order a deployment needs them: the configuration (validated as
 * `regdesk start` validates it), Redis, Slack, the registrar keys, the resolvers, the ports. A bad
 * configuration stops there: nothing else can be read from it.
 */
export async function runDoctor(env: NodeJS.ProcessEnv, words: DoctorWords): Promise<Finding[]> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems.map((problem) => fix(words.subjectConfiguration, words.configProblem({ problem })));
  }
  const findings: Finding[] = [configFinding(config, words)];
  if (config.playgroundRefusal !== undefined)
    findings.push(
      fix(words.subjectConfiguration, words.configPlaygroundRefused({ reason: config.playgroundRefusal })),
    );
  const redis = await checkRedis(config, words);
  findings.push(...redis.findings);
  try {
    const vault = redis.redis === undefined ? undefined : openVaultOf(config, redis.redis);
    const [slackFindings, registrar, resolvers, ports] = await Promise.all([
      checkSlack(config, vault, words),
      checkRegistrar(config, vault, redis.redis !== undefined, words),
      checkResolvers(config, words),
      checkPorts(config, words),
    ]);
    findings.push(...slackFindings, ...registrar, resolvers, ...ports);
  } finally {
    redis.redis?.disconnect();
  }
  return findings;
}

function openVaultOf(config: Config, redis: Redis) {
  return openVault(config, redis, new KeySpace(config.redis.keyPrefix));
}

/**
 * `regdesk doctor`'s action (contract §1): exit 0 when everything holds, 1 when something must be
 * fixed, 2 when it could not run. The CLI loads this module only when doctor runs: `web` and `start`
 * do not carry the manifest and its YAML parser for it (docs/memory.md).
 */
export async function doctorAction(
  options: { lang: 'en' | 'de' },
  out: (line: string) => void,
): Promise<void> {
  const words = (options.lang === 'de' ? de : en).doctor;
  try {
    const findings = await runDoctor(process.env, words);
    for (const line of renderReport(findings, words)) out(line);
    process.exitCode = exitCodeOf(findings);
  } catch (error) {
    process.stderr.write(`${words.couldNotRun({ reason: reasonOf(error) })}\n`);
    process.exitCode = 2;
  }
}
