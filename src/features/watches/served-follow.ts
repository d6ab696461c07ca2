import { z } from 'zod';
import type { RegistrarClient } from '../../registrar/index.js';
import { type LeafIdentity, leafFromPem, sameCertificate } from '../../served/leaf.js';
import { workspaceId } from '../../shared/workspace.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import type { Follower, FollowOutcome, FollowTools } from '../follow/jobs.js';
import { ROLLOUT_GRACE_MS, uncheckedReason, uncheckedWhere, whereOf } from './served-judge.js';

/** Lines the thread is told at most; the rest are counted. */
const MAX_LINES = 20;
/** What the follower remembers between its checks: when the issuance was first seen, and its identity. */
const Started = z.lazy(() =>
  z.object({
    at: z.number(),
    names: z.array(z.string()).max(100),
    leaf: z.object({
      spkiSha256: z.string(),
      serial: z.string(),
      notBefore: z.number(),
      notAfter: z.number(),
      issuer: z.string(),
    }),
  }),
);
/** Longer than the follower lives, so the record cannot outlast it by much. */
const STARTED_TTL_S = 2 * 86_400;

/**
 * After an issuance or reissue through Regdesk (the certificate follower names it `next`, in the
 * order's thread): whether every name of the certificate serves it yet. Settled, with the thread told,
 * once every name does, or a day after the first check with the names that still do not (and those
 * that could not be asked: never counted as serving it). A copy Regdesk cannot read (the sandbox's
 * placeholder) leaves nothing to compare, and settles without a word.
 */
export const servedFollower = {
  kind: 'served' as const,
  deadlineMs: ROLLOUT_GRACE_MS + 3_600_000,
  showCommand: (id) => text.tls.showCommand({ id }),
  check: async (registrar, id, tools) => {
    const started = await startOf(registrar, id, tools);
    if (started === undefined) return { settled: true, silent: true };
    const checks = await tools.served.look(tools.dns, started.names);
    const serving = (leaf: LeafIdentity) => sameCertificate(leaf, started.leaf);
    const missing = checks.filter((check) => check.kind !== 'served' || !serving(check.leaf));
    const certificate = codeSpan(id);
    if (checks.length > 0 && missing.length === 0)
      return settled(text.served.followAllServe({ id: certificate, count: checks.length }));
    if (tools.now() - started.at < ROLLOUT_GRACE_MS) return { settled: false };
    const lines = missing.slice(0, MAX_LINES).map((check) => {
      const name = `*${escapeMrkdwn(check.name)}*`;
      return check.kind === 'served'
        ? text.served.followLineOther({
            name,
            where: codeSpan(whereOf(check.address, check.port)),
            serial: codeSpan(check.leaf.serial),
          })
        : text.served.followLineUnchecked({
            name,
            where: uncheckedWhere(check),
            reason: uncheckedReason(check),
          });
    });
    if (missing.length > MAX_LINES) lines.push(text.served.followMore({ count: missing.length - MAX_LINES }));
    if (lines.length === 0)
      lines.push(
        text.served.followLineUnchecked({
          name: certificate,
          where: '',
          reason: text.served.reasonNoAddress,
        }),
      );
    return settled(text.served.followNotYet({ id: certificate, lines: lines.join('\n') }));
  },
} satisfies Follower<'served'>;

const settled = (said: string): FollowOutcome => ({
  settled: true,
  text: said,
  card: { text: said, blocks: [] },
});

/** The first check reads the certificate and keeps it; later checks read what was kept. */
async function startOf(
  registrar: RegistrarClient,
  id: string,
  tools: FollowTools,
): Promise<z.infer<typeof Started> | undefined> {
  const key = tools.keys.key(`ws:${workspaceId(tools.workspace)}`, 'watch', 'served-follow', id);
  const raw = await tools.redis.get(key);
  const kept = raw === null ? undefined : Started.safeParse(parsedJson(raw));
  if (kept?.success === true) return kept.data;
  const cert = await registrar.tls.get(id);
  const file = await registrar.tls.download(id, 'pem');
  const leaf = file.format === 'pem' ? leafFromPem(file.text) : undefined;
  if (leaf === undefined) return undefined;
  const started = {
    at: tools.now(),
    names: [...new Set([cert.common_name, ...cert.dns_names])].slice(0, 100),
    leaf,
  };
  await tools.redis.set(key, JSON.stringify(started), 'EX', STARTED_TTL_S);
  return started;
}

function parsedJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
