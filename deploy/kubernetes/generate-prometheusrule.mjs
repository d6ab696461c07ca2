#!/usr/bin/env node
// Writes deploy/kubernetes/prometheusrule.yaml, the Prometheus Operator's PrometheusRule, from
// deploy/prometheus/regdesk-alerts.yml: one rule file for compose, a plain Prometheus and Kubernetes.
//   node deploy/kubernetes/generate-prometheusrule.mjs          # after editing the rules
//   node deploy/kubernetes/generate-prometheusrule.mjs --check  # exit 1 when the file is out of date
// The suite runs the check (test/deploy/manifests.unit.test.ts). Plain JavaScript with the `yaml`
// package Regdesk already depends on, so it runs without a build.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';

const RULES = fileURLToPath(new URL('../prometheus/regdesk-alerts.yml', import.meta.url));
const TARGET = fileURLToPath(new URL('prometheusrule.yaml', import.meta.url));

const HEADER = `# GENERATED from deploy/prometheus/regdesk-alerts.yml by deploy/kubernetes/generate-prometheusrule.mjs:
# edit the rules there, then run \`node deploy/kubernetes/generate-prometheusrule.mjs\`. The suite fails
# while this file and the rules differ. docs/operations.md has a section for every alert.
# \`release: prometheus\` is what kube-prometheus-stack's ruleSelector asks for by default; use the
# labels your Prometheus selects.
`;

/** The PrometheusRule for the rule file's text: its groups as they are, under the operator's envelope. */
function prometheusRule(rulesText) {
  const { groups } = parse(rulesText);
  const resource = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: {
      name: 'regdesk',
      labels: {
        'app.kubernetes.io/name': 'regdesk',
        'app.kubernetes.io/part-of': 'regdesk',
        release: 'prometheus',
      },
    },
    spec: { groups },
  };
  // lineWidth 0: expressions and descriptions stay on their lines, as in the rule file.
  return HEADER + stringify(resource, { lineWidth: 0 });
}

const wanted = prometheusRule(readFileSync(RULES, 'utf8'));
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(TARGET, 'utf8');
  } catch {
    // Missing counts as out of date.
  }
  if (current !== wanted) {
    console.error(
      'deploy/kubernetes/prometheusrule.yaml differs from deploy/prometheus/regdesk-alerts.yml: run `node deploy/kubernetes/generate-prometheusrule.mjs`.',
    );
    process.exit(1);
  }
} else {
  writeFileSync(TARGET, wanted);
}
