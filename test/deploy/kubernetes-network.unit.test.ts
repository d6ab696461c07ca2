import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { INetworkPolicyPeer } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPeer';
import type { INetworkPolicyPort } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPort';
import { Service } from 'kubernetes-models/v1/Service';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  config,
  deployments,
  type PodMonitor,
  type PrometheusRule,
  podOf,
  rawOfKind,
  read,
  selects,
} from './kubernetes-manifests.js';

/**
 * Who reaches Regdesk's pods and whom they reach (networkpolicy.yaml), how Prometheus scrapes them
 * (podmonitor.yaml) with which rules (prometheusrule.yaml), and Slack's way in (ingress.example.yaml),
 * worked out from the objects as Kubernetes and the Prometheus Operator read them.
 */

const policies = rawOfKind<NetworkPolicy>('NetworkPolicy').map((doc) => new NetworkPolicy(doc));
const pods = deployments.map((deployment) => ({
  role: deployment.metadata?.labels?.['app.kubernetes.io/component'] ?? '',
  ...podOf(deployment),
}));
const podNamed = (role: string) => {
  const pod = pods.find((candidate) => candidate.role === role);
  if (pod === undefined) throw new Error(`no ${role} pod`);
  return pod;
};

/** The namespaces (by `kubernetes.io/metadata.name`) let in to `port` of the pod, across all policies. */
function admittedTo(pod: ReturnType<typeof podNamed>, port: number): string[] {
  const namespaces: string[] = [];
  for (const policy of policies) {
    if (!selects(policy.spec?.podSelector, pod.labels)) continue;
    for (const rule of policy.spec?.ingress ?? []) {
      const covers = (rule.ports ?? []).some(
        (p: INetworkPolicyPort) => (typeof p.port === 'string' ? pod.ports.get(p.port) : p.port) === port,
      );
      if (!covers) continue;
      for (const peer of rule.from ?? [{} as INetworkPolicyPeer]) {
        // Only namespace peers here: an ipBlock or a bare podSelector would admit more than that.
        expect(Object.keys(peer)).toEqual(['namespaceSelector']);
        const name = peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'];
        expect(name).toBeDefined();
        namespaces.push(name ?? '');
      }
    }
  }
  return namespaces.sort();
}

describe('networkpolicy.yaml', () => {
  it('isolates every pod of the namespace, both ways', () => {
    for (const pod of pods) {
      const isolating = policies.filter(
        (policy) =>
          selects(policy.spec?.podSelector, pod.labels) &&
          (['Ingress', 'Egress'] as const).every((type) => policy.spec?.policyTypes?.includes(type)),
      );
      expect(isolating.length, pod.role).toBeGreaterThanOrEqual(1);
    }
    // `{}` selects every pod of the namespace, also one added later.
    expect(policies.some((policy) => Object.keys(policy.spec?.podSelector ?? { x: 1 }).length === 0)).toBe(
      true,
    );
  });

  it('lets the ingress namespace reach PORT of the web pods only, and Prometheus reach the metrics ports only', () => {
    const web = podNamed('web');
    const worker = podNamed('worker');
    expect(admittedTo(web, Number(config.PORT))).toEqual(['ingress-nginx']);
    expect(admittedTo(web, Number(config.METRICS_PORT))).toEqual(['monitoring']);
    expect(admittedTo(worker, Number(config.WORKER_PORT))).toEqual(['monitoring']);
    // Every port a pod has is accounted for: nothing else is reachable.
    expect([...web.ports.values()].sort()).toEqual([Number(config.PORT), Number(config.METRICS_PORT)].sort());
    expect([...worker.ports.values()]).toEqual([Number(config.WORKER_PORT)]);
  });

  it('lets the pods reach DNS (UDP and TCP) and HTTPS anywhere, and Redis', () => {
    for (const pod of pods) {
      const rules = policies
        .filter((policy) => selects(policy.spec?.podSelector, pod.labels))
        .flatMap((policy) => policy.spec?.egress ?? []);
      const anywhere = (protocol: string, port: number) =>
        rules.some(
          (rule) =>
            (rule.to ?? []).length === 0 &&
            (rule.ports ?? []).some((p) => p.protocol === protocol && p.port === port),
        );
      expect(anywhere('UDP', 53), pod.role).toBe(true);
      expect(anywhere('TCP', 53), pod.role).toBe(true);
      expect(anywhere('TCP', 443), pod.role).toBe(true);
      const redisPort = Number(new URL(config.REDIS_URL ?? '').port || 6379);
      expect(
        rules.some((rule) => (rule.ports ?? []).some((p) => p.protocol === 'TCP' && p.port === redisPort)),
        pod.role,
      ).toBe(true);
      // Nothing but those: no rule without ports (which would open every port).
      for (const rule of rules) expect(rule.ports?.length ?? 0, pod.role).toBeGreaterThan(0);
    }
  });
});

describe('podmonitor.yaml', () => {
  const [monitor] = rawOfKind<PodMonitor>('PodMonitor');

  it('scrapes web pods on METRICS_PORT and worker pods on WORKER_PORT, never PORT, each once', () => {
    const targets = pods.flatMap((pod) => {
      if (!selects(monitor?.spec.selector, pod.labels)) return [];
      return (monitor?.spec.podMetricsEndpoints ?? []).flatMap((endpoint) => {
        const port = pod.ports.get(endpoint.port);
        // The operator keeps only pods with a container port of that name, then applies `relabelings`.
        if (port === undefined) return [];
        const kept = (endpoint.relabelings ?? []).every((relabel) => {
          expect(relabel.action).toBe('keep');
          expect(relabel.sourceLabels).toEqual(['__meta_kubernetes_pod_label_app_kubernetes_io_component']);
          return new RegExp(`^(?:${relabel.regex})$`).test(pod.role);
        });
        return kept ? [`${pod.role}:${port}${endpoint.path}`] : [];
      });
    });
    expect(targets.sort()).toEqual(
      [`web:${config.METRICS_PORT}/metrics`, `worker:${config.WORKER_PORT}/metrics`].sort(),
    );
    expect(config.METRICS_PORT).not.toBe(config.PORT);
  });
});

describe('prometheusrule.yaml', () => {
  it('carries exactly the groups of deploy/prometheus/regdesk-alerts.yml (tools.test.ts checks the bytes)', () => {
    const [rule] = rawOfKind<PrometheusRule>('PrometheusRule');
    const shipped = parse(read('deploy/prometheus/regdesk-alerts.yml')) as { groups: unknown };
    expect(rule?.spec.groups).toEqual(shipped.groups);
  });
});

describe('ingress.example.yaml', () => {
  const [ingress] = rawOfKind<Ingress>('Ingress').map((doc) => new Ingress(doc));
  const [service] = rawOfKind<Service>('Service').map((doc) => new Service(doc));

  it('routes only Slack and the probes to the web Service, with TLS, never /metrics', () => {
    const [rule] = ingress?.spec?.rules ?? [];
    const paths = rule?.http?.paths ?? [];
    expect(paths.map((path) => [path.path, path.pathType])).toEqual([
      ['/slack/', 'Prefix'],
      ['/livez', 'Exact'],
      ['/readyz', 'Exact'],
      ['/healthz', 'Exact'],
    ]);
    for (const path of paths) {
      expect(path.backend.service?.name).toBe(service?.metadata?.name);
      expect(service?.spec?.ports?.map((port) => port.name)).toContain(path.backend.service?.port?.name);
    }
    expect(ingress?.spec?.tls?.[0]?.hosts).toEqual([rule?.host]);
    expect(ingress?.spec?.ingressClassName).toBeDefined();
  });
});
