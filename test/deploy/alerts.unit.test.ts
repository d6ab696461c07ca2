import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createMetrics } from '../../src/shared/metrics.js';

/**
 * The alert rules and the dashboard as an operator meets them (docs/operations.md): every alert links
 * a section of the runbook that exists, nothing selects Regdesk by a job name the deployment may not
 * produce, and the dashboard narrows by its variables. promtool checks what the rules do
 * (test/operations/prometheus.test.ts), a real Prometheus runs them (prometheus.test.ts).
 */

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}
const { groups } = parse(read('deploy/prometheus/regdesk-alerts.yml')) as {
  groups: Array<{ name: string; rules: Rule[] }>;
};
const rules = groups.flatMap((group) => group.rules);

/** The runbook's `###` headings, as GitHub anchors them (alert names have no spaces or punctuation). */
const runbook = read('docs/operations.md');
const sections = [...runbook.matchAll(/^### (\S+)$/gm)].map((match) => match[1] ?? '');

describe('deploy/prometheus/regdesk-alerts.yml', () => {
  it('links every alert to its own section of docs/operations.md, which says what it means and what to do', () => {
    expect(rules.length).toBeGreaterThanOrEqual(11);
    for (const rule of rules) {
      expect(rule.annotations.runbook_url, rule.alert).toBe(`docs/operations.md#${rule.alert.toLowerCase()}`);
      expect(sections, rule.alert).toContain(rule.alert);
      const section = runbook.split(`### ${rule.alert}\n`)[1]?.split(/^##/m)[0] ?? '';
      expect(section, rule.alert).toContain('**What it means.**');
      expect(section, rule.alert).toContain('**What to do.**');
    }
    // And no section for an alert that does not exist.
    expect(sections.sort()).toEqual(rules.map((rule) => rule.alert).sort());
  });

  it('selects nothing by job or namespace name, and keeps both labels through every aggregation', () => {
    for (const rule of rules) {
      expect(rule.expr, rule.alert).not.toMatch(/\b(job|namespace)\s*=~?\s*"/);
      for (const [, grouping] of rule.expr.matchAll(/\b(?:by|on)\s*\(([^)]*)\)/g)) {
        const labels = (grouping ?? '').split(',').map((label) => label.trim());
        expect(labels, rule.alert).toEqual(expect.arrayContaining(['namespace', 'job']));
      }
      expect(rule.expr, rule.alert).not.toMatch(/\bwithout\s*\(/);
      expect(['critical', 'warning', 'info'], rule.alert).toContain(rule.labels.severity);
    }
  });

  it('has the alerts for what users feel: watches stalled, approved actions failed, audit backlog not draining', () => {
    const names = rules.map((rule) => rule.alert);
    expect(names).toEqual(
      expect.arrayContaining([
        'RegdeskWatchesStalled',
        'RegdeskApprovedActionsFailed',
        'RegdeskAuditSinkBacklog',
      ]),
    );
    // Slack's 429s alert as a sustained rate, not on one retried call.
    const limited = rules.find((rule) => rule.alert === 'RegdeskSlackRateLimited');
    expect(limited?.expr).toMatch(/\brate\(/);
    expect(limited?.for).toBeDefined();
  });
});

describe('the metrics the new alerts read', () => {
  it('exist from a process start at 0, so that `increase()` sees the first failure and a stale sweep shows', async () => {
    const text = await createMetrics().registry.metrics();
    // A counter series that first appears at 1 has no increase for Prometheus.
    expect(text).toMatch(/^regdesk_approvals_total\{state="failed"\} 0$/m);
    expect(text).toMatch(/^regdesk_approval_reminders_total 0$/m);
    // 0: this process never finished a sweep (RegdeskWatchesStalled leaves it out).
    expect(text).toMatch(/^regdesk_watch_sweep_last_success_timestamp_seconds 0$/m);
  });
});

describe('deploy/grafana/regdesk-dashboard.json', () => {
  const dashboard = JSON.parse(read('deploy/grafana/regdesk-dashboard.json')) as {
    templating: { list: Array<{ name: string; type: string; query?: { query: string }; allValue?: string }> };
    panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
  };
  const variables = dashboard.templating.list;

  it('has namespace, job and instance variables read from regdesk_build_info', () => {
    for (const name of ['namespace', 'job', 'instance']) {
      const variable = variables.find((v) => v.name === name);
      expect(variable?.type, name).toBe('query');
      expect(variable?.query?.query, name).toMatch(
        new RegExp(`^label_values\\(regdesk_build_info.*, ${name}\\)$`),
      );
    }
    // "All" jobs means Regdesk's jobs (Grafana joins the listed values), never every job Prometheus has.
    expect(variables.find((v) => v.name === 'job')?.allValue).toBeUndefined();
  });

  it('narrows every query by the variables, and takes every rate over $__rate_interval', () => {
    const exprs = dashboard.panels.flatMap((panel) =>
      (panel.targets ?? []).map((target) => ({ title: panel.title, expr: target.expr })),
    );
    expect(exprs.length).toBeGreaterThan(25);
    for (const { title, expr } of exprs) {
      for (const selector of expr.matchAll(/\b([a-z_:]+)\{([^}]*)\}/g))
        expect(selector[2], `${title}: ${selector[1]}`).toContain(
          'namespace=~"$namespace", job=~"$job", instance=~"$instance"',
        );
      // No metric without a selector: each is followed by its `{…}`.
      expect(expr.match(/\b(?:regdesk_\w+|process_\w+|nodejs_\w+|up)\b(?!\{)/g), title).toBeNull();
      for (const [, range] of expr.matchAll(/\b(?:rate|increase)\([^[]*\[([^\]]+)\]/g))
        expect(range, title).toBe('$__rate_interval');
      expect(expr, title).not.toContain('job="regdesk"');
    }
  });
});
