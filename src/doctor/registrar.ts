import type { Config } from '../config.js';
import { registrarKeyCheck } from '../features/keys/check.js';
import { createRegistrarClient } from '../registrar/index.js';
import type { Vault } from '../vault/store.js';
import { type DoctorWords, type Finding, fix, note, ok } from './report.js';
import { storedSecrets, teamName } from './vault.js';

/**
 * The registrar key of each workspace, with the one read `/domain key` checks a key with (it costs no
 * limited quota). The embedded sandbox runs inside Regdesk, so there is nothing outside to ask; a
 * `regdesk sandbox` elsewhere is asked like the registrar, with its demo key where no workspace has one.
 */
export async function checkRegistrar(
  config: Config,
  vault: Vault | undefined,
  redisAnswered: boolean,
  words: DoctorWords,
): Promise<Finding[]> {
  const subject = words.subjectRegistrar;
  if (config.registrar.kind === 'embedded-sandbox') return [ok(subject, words.registrarEmbedded)];
  if (!redisAnswered) return [note(subject, words.registrarNotChecked)];
  if (vault === undefined) return [note(subject, words.registrarNoVaultKey)];
  const url = config.registrar.apiUrl;
  const check = registrarKeyCheck((apiKey) =>
    createRegistrarClient({ baseUrl: url, apiKey, timeoutMs: 10_000, maxRetries: 0 }),
  );
  const said = async (key: string) => {
    const result = await check(key);
    if (result.ok) return undefined;
    return result.reason === 'rejected'
      ? words.registrarKeyRejected({ url })
      : words.registrarUnreachable({ url });
  };
  const stored = await storedSecrets(vault, 'registrar-key');
  if (stored.length === 0) {
    const demo = config.registrar.sandbox ? config.registrar.sandboxApiKey : undefined;
    if (demo === undefined) return [note(subject, words.registrarNoKeys)];
    const problem = await said(demo);
    return [
      problem === undefined ? ok(subject, words.registrarDemoKeyAccepted({ url })) : fix(subject, problem),
    ];
  }
  return Promise.all(
    stored.map(async ({ workspace, secret }) => {
      const keySubject = words.subjectRegistrarKey({ team: teamName(workspace) });
      if (secret === 'unreadable') return fix(keySubject, words.registrarKeyUnreadable);
      const problem = await said(secret);
      return problem === undefined
        ? ok(keySubject, words.registrarKeyAccepted({ url }))
        : fix(keySubject, problem);
    }),
  );
}
