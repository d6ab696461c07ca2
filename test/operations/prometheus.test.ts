import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/shared/metrics.js';
import { packageVersion } from '../../src/shared/version.js';
import { webClientOptions } from '../../src/slack/app.js';
import { type Harness, memoryLogger, startHarness } from '../helpers/app-harness.js';
import { FakeSlack } from '../helpers/fake-slack.js';
import { promtool } from '../helpers/promtool.js';

const DEPLOY = join(import.meta.dirname, '..', '..', 'deploy');

/** The metric families of a Prometheus text exposition, with a histogram's `_bucket`, `_count` and `_sum`. */
function exported(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    if (name === undefined) continue;
    names.add(name);
    if (type === 'histogram' || type === 'summary')
      for (const part of ['_bucket', '_count', '_sum']) names.add(`${name}${part}`);
  }
  return names;
}

/** PromQL's words that are not metric names. */
const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'le',
  'inf',
]);

/** The metric names an expression reads: identifiers outside label matchers, ranges and grouping, not called. */
function metricsOf(expr: string): string[] {
  const bare = expr
    .replace(/"[^"]*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  return [...bare.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()/g)]
    .map((match) => match[1] ?? '')
    .filter((name) => !KEYWORDS.has(name.toLowerCase()) && !/^\d/.test(name));
}

describe('operations: alert rules, dashboard and /metrics checked with the real tools', () => {
  let h: Harness;
  let exposition = '';

  beforeAll(async () => {
    h = await startHarness();
    // Some traffic, so the histograms and counters have series: a look-up and a Slack post.
    await h.driver.command('/domain', 'info example.com', { user: 'U0001', channel: 'C0001' });
    await h.slack.waitFor((calls) => calls.some((c) => c.method.startsWith('response_url:')), 15_000);
    await h.running.services.audit.append(
      { teamId: 'T0001' },
      { action: 'remind', actor: 'regdesk', requestId: 'apr_0000000000000001' },
    );
    exposition = await (await fetch(`${h.url}/metrics`)).text();
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('promtool checks the alert rules and passes their unit tests (each alert fires, and does not)', async () => {
    const checked = await promtool(['check', 'rules', join(DEPLOY, 'prometheus', 'regdesk-alerts.yml')]);
    expect(checked.output).toContain('SUCCESS: 11 rules found');
    expect(checked.code).toBe(0);
    const tested = await promtool(['test', 'rules', 'regdesk-alerts.test.yml'], {
      cwd: join(DEPLOY, 'prometheus'),
    });
    expect(tested.output).toContain('SUCCESS');
    expect(tested.code).toBe(0);
  });

  it('promtool finds nothing to fix in a live /metrics, which follows the conventions', async () => {
    const linted = await promtool(['check', 'metrics'], { stdin: exposition });
    // Nothing to fix, prom-client's standard metrics included (metrics.ts drops its misnamed gauges).
    expect(linted.output.trim()).toBe('');
    expect(linted.code).toBe(0);
    const names = exported(exposition);
    // The standard process and Node metrics under their usual names, no prefix.
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
    ])
      expect(names.has(name), name).toBe(true);
    expect(
      [...names].some((name) => name.startsWith('regdesk_process_') || name.startsWith('regdesk_nodejs_')),
    ).toBe(false);
    expect(exposition).toContain(
      `regdesk_build_info{version="${packageVersion()}",node="${process.version}",commit="unknown"} 1`,
    );
    expect(exposition).toMatch(/^regdesk_ready 1$/m);
    expect(exposition).toMatch(/^regdesk_data_incident 0$/m);
    expect(exposition).toMatch(
      /^regdesk_registrar_request_duration_seconds_count\{operation="domains\.get",status="200"\} [1-9]/m,
    );
    expect(exposition).toMatch(/^regdesk_slack_api_calls_total\{method="auth\.test",status="ok"\} [1-9]/m);
    expect(exposition).toMatch(/^regdesk_approval_reminders_total 1$/m);
    expect(exposition).toMatch(/^regdesk_queue_oldest_waiting_seconds\{queue="assistant"\} \d/m);
  });

  it('the dashboard and the rules query only metrics Regdesk exports', () => {
    const names = exported(exposition);
    const dashboard = JSON.parse(readFileSync(join(DEPLOY, 'grafana', 'regdesk-dashboard.json'), 'utf8')) as {
      panels: Array<{ targets?: Array<{ expr: string }> }>;
    };
    const exprs = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
    const rules = readFileSync(join(DEPLOY, 'prometheus', 'regdesk-alerts.yml'), 'utf8');
    exprs.push(
      ...[...rules.matchAll(/expr: \|?\s*([\s\S]*?)\n\s+(?:for|labels):/g)].map((match) => match[1] ?? ''),
    );
    expect(exprs.length).toBeGreaterThan(25);
    const used = new Set(exprs.flatMap(metricsOf));
    // `up` is Prometheus' own for every scrape target.
    const unknown = [...used].filter((name) => name !== 'up' && !names.has(name));
    expect(unknown).toEqual([]);
    expect(used.size).toBeGreaterThan(15);
  });

  it('counts watch looks by kind and outcome', async () => {
    await h.driver.command('/domain', 'watch add example.com', { user: 'U0001', channel: 'C0002' });
    const scrape = async () => (await fetch(`${h.url}/metrics`)).text();
    // A newly watched item is looked at within 60 s (contract §3 "Watches").
    await expect
      .poll(scrape, { timeout: 70_000, interval: 500 })
      .toMatch(/^regdesk_watch_looks_total\{kind="domain",outcome="ok"\} [1-9]/m);
  }, 90_000);

  it("counts Slack's 429s by method, through the Web API client's own transport", async () => {
    const slack = await new FakeSlack({ pacing: true }).start();
    try {
      const metrics = createMetrics();
      const client = new WebClient(
        'xoxb-test',
        webClientOptions(slack.apiUrl, memoryLogger().logger, metrics),
      );
      // Two posts in one channel within a second: Slack answers the second 429 (Retry-After: 1), the
      // client waits and sends it again.
      await Promise.all([
        client.chat.postMessage({ channel: 'C0001', text: 'one' }),
        client.chat.postMessage({ channel: 'C0001', text: 'two' }),
      ]);
      const text = await metrics.registry.metrics();
      expect(text).toMatch(/^regdesk_slack_api_calls_total\{method="chat\.postMessage",status="429"\} 1$/m);
      expect(text).toMatch(/^regdesk_slack_api_calls_total\{method="chat\.postMessage",status="ok"\} 2$/m);
    } finally {
      await slack.stop();
    }
  });
});
