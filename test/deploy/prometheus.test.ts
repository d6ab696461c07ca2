import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { BOT_TOKEN, SIGNING_SECRET } from '../helpers/app-harness.js';
import { FakeSlack } from '../helpers/fake-slack.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { type Proc, startProcess, stopProcess } from '../scale/processes.js';
import { type PrometheusServer, startPrometheus } from './prometheus-server.js';

/**
 * The "done when" (docs/operations.md "Scraping"): a real Prometheus, run on the shipped
 * deploy/prometheus/prometheus.yml (its targets swapped for these processes) with the shipped rules,
 * scrapes a built `regdesk web` on METRICS_PORT and a `regdesk worker` on WORKER_PORT from this
 * machine's network address, not loopback, as Prometheus in another container would; every target
 * comes up and every rule group is healthy. Everything is waited for through Prometheus's API.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** This machine's address on its network (the scrapes then do not come from loopback), else loopback. */
const HOST =
  Object.values(networkInterfaces())
    .flat()
    .find((address) => address !== undefined && address.family === 'IPv4' && !address.internal)?.address ??
  '127.0.0.1';

/** Polls `read` until `done` holds of its value (or the timeout), then returns the last value. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

interface Targets {
  activeTargets: Array<{
    scrapeUrl: string;
    health: string;
    lastError: string;
    labels: Record<string, string>;
  }>;
}
interface Rules {
  groups: Array<{
    name: string;
    rules: Array<{
      name: string;
      health: string;
      lastError?: string;
      lastEvaluation: string;
      state?: string;
    }>;
  }>;
}

describe('a real Prometheus scrapes `regdesk web` and `regdesk worker` with the shipped config and rules', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'regdesk-prometheus-'));
  let slack: FakeSlack;
  let web: Proc | undefined;
  let worker: Proc | undefined;
  let prometheus: PrometheusServer | undefined;
  let metricsPort = 0;

  beforeAll(async () => {
    slack = await new FakeSlack().start();
    const env = {
      PORT: '0',
      WORKER_PORT: '0',
      METRICS_PORT: '0',
      // `metrics listening` (with the port METRICS_PORT 0 was given) is an info line.
      LOG_LEVEL: 'info',
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_API_URL: slack.apiUrl,
      REDIS_URL: testRedisUrl(),
      REDIS_ALLOW_EPHEMERAL: '1',
      REDIS_KEY_PREFIX: `tprom${randomBytes(4).toString('hex')}`,
      REGFISH_SANDBOX: '1',
      VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
      REGDESK_DATA_DIR: join(scratch, 'data'),
    };
    web = await startProcess('web', env);
    worker = await startProcess('worker', env);
    metricsPort = Number(/"port":(\d+)[^\n]*"msg":"metrics listening"/.exec(web.output())?.[1]);
    expect(metricsPort).toBeGreaterThan(0);

    const shipped = parse(readFileSync(join(ROOT, 'deploy/prometheus/prometheus.yml'), 'utf8')) as {
      global: Record<string, string>;
      rule_files: string[];
      scrape_configs: Array<{ static_configs: Array<{ targets: string[] }> }>;
    };
    const [job] = shipped.scrape_configs;
    if (job === undefined) throw new Error('deploy/prometheus/prometheus.yml has no scrape config');
    // Faster than the shipped 30 s, so the test waits seconds; the rest as shipped.
    shipped.global = { scrape_interval: '2s', evaluation_interval: '2s' };
    shipped.rule_files = [join(ROOT, 'deploy/prometheus/regdesk-alerts.yml')];
    job.static_configs = [{ targets: [`${HOST}:${metricsPort}`, `${HOST}:${worker.port}`] }];
    const config = join(scratch, 'prometheus.yml');
    writeFileSync(config, stringify(shipped));
    prometheus = await startPrometheus(config, join(scratch, 'tsdb'));
  }, 120_000);

  afterAll(async () => {
    await prometheus?.stop();
    for (const proc of [worker, web]) if (proc !== undefined) await stopProcess(proc);
    await slack?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  it('serves /metrics to another host on METRICS_PORT and WORKER_PORT, not on PORT, which faces Slack', async () => {
    expect(HOST, 'a network address besides loopback').not.toBe('127.0.0.1');
    expect((await fetch(`http://${HOST}:${metricsPort}/metrics`)).status).toBe(200);
    expect((await fetch(`http://${HOST}:${worker?.port}/metrics`)).status).toBe(200);
    const onPort = await fetch(`http://${HOST}:${web?.port}/metrics`);
    expect(onPort.status).toBe(404);
    expect(await onPort.json()).toMatchObject({ error: 'metrics_elsewhere' });
  });

  it('finds both targets up', async () => {
    const targets = await until(
      () =>
        prometheus?.api<Targets>('/api/v1/targets?state=active') ?? Promise.reject(new Error('no server')),
      (data) =>
        data.activeTargets.length === 2 && data.activeTargets.every((target) => target.health === 'up'),
    );
    expect(
      targets.activeTargets
        .map(({ scrapeUrl, health, lastError }) => ({ scrapeUrl, health, lastError }))
        .sort((a, b) => a.scrapeUrl.localeCompare(b.scrapeUrl)),
    ).toEqual(
      [`http://${HOST}:${metricsPort}/metrics`, `http://${HOST}:${worker?.port}/metrics`]
        .sort()
        .map((scrapeUrl) => ({ scrapeUrl, health: 'up', lastError: '' })),
    );
  }, 120_000);

  it('loads every shipped rule, and evaluates every group healthy with nothing firing', async () => {
    // Evaluated, healthy, and quiet: a process still settling (a worker's queues being readied) may
    // hold an alert pending for a moment, which clears by itself.
    const evaluated = (data: Rules) =>
      data.groups.length > 0 &&
      data.groups.every((group) =>
        group.rules.every(
          (rule) =>
            rule.health === 'ok' &&
            !rule.lastEvaluation.startsWith('0001') &&
            (rule.state ?? 'inactive') === 'inactive',
        ),
      );
    const rules = await until(
      () => prometheus?.api<Rules>('/api/v1/rules') ?? Promise.reject(new Error('no server')),
      evaluated,
    );
    const shipped = parse(readFileSync(join(ROOT, 'deploy/prometheus/regdesk-alerts.yml'), 'utf8')) as {
      groups: Array<{ name: string; rules: Array<{ alert: string }> }>;
    };
    expect(rules.groups.map((group) => group.rules.map((rule) => rule.name))).toEqual(
      shipped.groups.map((group) => group.rules.map((rule) => rule.alert)),
    );
    expect(rules.groups.flatMap((group) => group.rules).filter((rule) => rule.health !== 'ok')).toEqual([]);
    // Both processes healthy: no alert pending or firing (a watch sweep may not have finished yet,
    // which leaves RegdeskWatchesStalled without a series, not firing).
    expect(
      rules.groups
        .flatMap((group) => group.rules)
        .filter((rule) => (rule.state ?? 'inactive') !== 'inactive'),
    ).toEqual([]);
  }, 120_000);

  it("knows both processes as Regdesk's by RegdeskDown's own selector, with no job name given", async () => {
    const query = encodeURIComponent(
      'up and on (namespace, job) group by (namespace, job) (max_over_time(regdesk_build_info[1d]))',
    );
    const result = await until(
      () =>
        prometheus?.api<{ result: Array<{ metric: Record<string, string> }> }>(
          `/api/v1/query?query=${query}`,
        ) ?? Promise.reject(new Error('no server')),
      (data) => data.result.length === 2,
    );
    expect(result.result.map((series) => series.metric.instance).sort()).toEqual(
      [`${HOST}:${metricsPort}`, `${HOST}:${worker?.port}`].sort(),
    );
  }, 120_000);

  it("sees the worker finish watch sweeps: RegdeskWatchesStalled's age is seconds, not minutes", async () => {
    const query = encodeURIComponent(
      'time() - max by (namespace, job) (max_over_time(regdesk_watch_sweep_last_success_timestamp_seconds[1d]) > 0)',
    );
    // The sweep runs every 30 s on one worker; the first may take that long to come round.
    const age = await until(
      () =>
        prometheus?.api<{ result: Array<{ value: [number, string] }> }>(`/api/v1/query?query=${query}`) ??
        Promise.reject(new Error('no server')),
      (data) => data.result.length === 1,
    );
    expect(age.result).toHaveLength(1);
    expect(Number(age.result[0]?.value[1])).toBeLessThan(600);
  }, 120_000);

  it('answers every query of the dashboard, with its variables set to what it would offer', async () => {
    const dashboard = JSON.parse(
      readFileSync(join(ROOT, 'deploy/grafana/regdesk-dashboard.json'), 'utf8'),
    ) as {
      panels: Array<{ targets?: Array<{ expr: string }> }>;
    };
    const exprs = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
    expect(exprs.length).toBeGreaterThan(25);
    for (const expr of exprs) {
      const concrete = expr
        .replaceAll('$namespace', '.*')
        .replaceAll('$job', 'regdesk')
        .replaceAll('$instance', '.*')
        .replaceAll('$__rate_interval', '1m');
      await expect(
        prometheus?.api(`/api/v1/query?query=${encodeURIComponent(concrete)}`),
        expr,
      ).resolves.toBeDefined();
    }
  });
});
