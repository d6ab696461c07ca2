import { readdirSync, readFileSync } from 'node:fs';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';

/** deploy/kubernetes/ read as the tests see it: every document of every manifest, by file. */

const ROOT = new URL('../../', import.meta.url);
export const read = (path: string): string => readFileSync(new URL(path, ROOT), 'utf8');
export const K8S = 'deploy/kubernetes/';

type Validatable = { validate(): void };

/**
 * The Prometheus Operator's kinds (monitoring.coreos.com/v1) are custom resources, which
 * `kubernetes-models` does not cover: these schemas hold the fields the manifests use, as the
 * operator's API reference documents them, and refuse any other (a misspelt field would otherwise be
 * dropped by the API server without a word).
 */
const Selector = z.strictObject({ matchLabels: z.record(z.string(), z.string()) });
const PodMonitorSchema = z.strictObject({
  apiVersion: z.literal('monitoring.coreos.com/v1'),
  kind: z.literal('PodMonitor'),
  metadata: z.strictObject({ name: z.string(), labels: z.record(z.string(), z.string()) }),
  spec: z.strictObject({
    selector: Selector,
    podMetricsEndpoints: z
      .array(
        z.strictObject({
          port: z.string(),
          path: z.string().startsWith('/'),
          interval: z.string().regex(/^\d+[smh]$/),
          relabelings: z
            .array(
              z.strictObject({
                sourceLabels: z.array(z.string()),
                regex: z.string(),
                action: z.enum(['keep', 'drop', 'replace']),
              }),
            )
            .optional(),
        }),
      )
      .min(1),
  }),
});
const PrometheusRuleSchema = z.strictObject({
  apiVersion: z.literal('monitoring.coreos.com/v1'),
  kind: z.literal('PrometheusRule'),
  metadata: z.strictObject({ name: z.string(), labels: z.record(z.string(), z.string()) }),
  spec: z.strictObject({
    groups: z.array(z.strictObject({ name: z.string(), rules: z.array(z.record(z.string(), z.unknown())) })),
  }),
});
const crd = (schema: z.ZodType) =>
  class {
    constructor(private readonly data: unknown) {}
    validate(): void {
      schema.parse(this.data);
    }
  };

/** The kinds these manifests use; a new kind needs its model here, so nothing goes unchecked. */
export const MODELS: Record<string, new (data: never) => Validatable> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'networking.k8s.io/v1/Ingress': Ingress,
  'monitoring.coreos.com/v1/PodMonitor': crd(PodMonitorSchema),
  'monitoring.coreos.com/v1/PrometheusRule': crd(PrometheusRuleSchema),
};
export type PodMonitor = z.infer<typeof PodMonitorSchema>;
export type PrometheusRule = z.infer<typeof PrometheusRuleSchema>;

export const manifestFiles = readdirSync(new URL(K8S, ROOT)).filter(
  (name) => name.endsWith('.yaml') && name !== 'kustomization.yaml',
);
export const all = manifestFiles.flatMap((file) =>
  parseAllDocuments(read(K8S + file)).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.join('; ')}`);
    return { file, doc: doc.toJS() as Record<string, unknown> };
  }),
);
export const ofKind = <T>(Model: new (data: never) => T, kind: string): T[] =>
  all.filter(({ doc }) => doc.kind === kind).map(({ doc }) => new Model(doc as never));
export const rawOfKind = <T>(kind: string): T[] =>
  all.filter(({ doc }) => doc.kind === kind).map(({ doc }) => doc as T);

export const deployments = ofKind(Deployment, 'Deployment');
export const config = ofKind(ConfigMap, 'ConfigMap')[0]?.data ?? {};

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}
/** Kubernetes' label selector semantics (matchLabels and matchExpressions, all ANDed). */
export function selects(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (selector === undefined) return false;
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  return (
    byLabel &&
    (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
      const value = labels[key];
      if (operator === 'In') return value !== undefined && values.includes(value);
      if (operator === 'NotIn') return value === undefined || !values.includes(value);
      return operator === 'Exists' ? value !== undefined : value === undefined;
    })
  );
}

/** A Deployment's pod labels and its first container's named ports (name → number). */
export function podOf(deployment: Deployment): {
  labels: Record<string, string>;
  ports: Map<string, number>;
} {
  const container = deployment.spec?.template.spec?.containers[0];
  return {
    labels: deployment.spec?.template.metadata?.labels ?? {},
    ports: new Map((container?.ports ?? []).map((port) => [port.name ?? '', port.containerPort])),
  };
}
