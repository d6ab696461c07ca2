import { randomBytes } from 'node:crypto';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigError, loadConfig } from '../../src/config.js';
import {
  all,
  config,
  deployments,
  K8S,
  MODELS,
  manifestFiles,
  ofKind,
  read,
  selects,
} from './kubernetes-manifests.js';

/**
 * deploy/kubernetes (docs/scaling.md, docs/operations.md "Kubernetes"): every object against the
 * Kubernetes API schema (`kubernetes-models`; the operator's kinds against their documented fields),
 * the namespace named once, the pods within the `restricted` Pod Security profile, and the probes,
 * resources and selectors docs/monitoring.md "Probes" asks for. kubernetes-network.unit.test.ts checks
 * the NetworkPolicy, PodMonitor, PrometheusRule and Ingress; tools.test.ts renders it all with
 * `kubectl kustomize`.
 */

const secretExample = ofKind(Secret, 'Secret')[0];
const kustomization = parse(read(`${K8S}kustomization.yaml`)) as { namespace?: string; resources: string[] };

describe('deploy/kubernetes', () => {
  it('validates every document against the Kubernetes API schema', () => {
    expect(all.length).toBeGreaterThanOrEqual(14);
    for (const { file, doc } of all) {
      const Model = MODELS[`${String(doc.apiVersion)}/${String(doc.kind)}`];
      expect(Model, `${file}: ${String(doc.kind)}`).toBeDefined();
      if (Model === undefined) continue;
      expect(() => new Model(doc as never).validate(), file).not.toThrow();
    }
  });

  it('names the namespace once, in kustomization.yaml, and no manifest names one', () => {
    expect(kustomization.namespace).toBe('regdesk');
    for (const { file, doc } of all) {
      const { namespace } = doc.metadata as { namespace?: string };
      expect(namespace, file).toBeUndefined();
    }
    // kustomize names the Namespace object after `namespace:` too; this file says the same.
    expect(ofKind(Namespace, 'Namespace').map((ns) => ns.metadata?.name)).toEqual([kustomization.namespace]);
  });

  it('applies every manifest but the examples (Secret, Ingress) through kustomization.yaml', () => {
    expect([...kustomization.resources].sort()).toEqual(
      manifestFiles.filter((f) => !f.endsWith('.example.yaml')).sort(),
    );
    expect(manifestFiles.filter((f) => f.endsWith('.example.yaml')).sort()).toEqual([
      'ingress.example.yaml',
      'secret.example.yaml',
    ]);
  });

  it('keeps only marked placeholders in the Secret example, which Regdesk refuses to start with', () => {
    const values = Object.values(secretExample?.stringData ?? {});
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) expect(value).toMatch(/^PLACEHOLDER-/);
    expect(() => loadConfig({ ...config, ...secretExample?.stringData })).toThrow(/VAULT_MASTER_KEY/);
  });

  it('has a ConfigMap Regdesk accepts once the Secret holds real values', () => {
    const secrets = {
      SLACK_SIGNING_SECRET: randomBytes(16).toString('hex'),
      SLACK_BOT_TOKEN: `xoxb-${randomBytes(8).toString('hex')}`,
      VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
    };
    expect(Object.keys(secrets).sort()).toEqual(Object.keys(secretExample?.stringData ?? {}).sort());
    let problems: string[] = [];
    try {
      loadConfig({ ...config, ...secrets });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems = error.problems;
    }
    expect(problems).toEqual([]);
  });

  it.each([
    ['web', 'PORT', 3000],
    ['worker', 'WORKER_PORT', 3001],
  ])(
    'runs `regdesk %s` twice, probed on %s (%i), with resources and a read-only root',
    (role, variable, port) => {
      const deployment = deployments.find(
        (d) => d.metadata?.labels?.['app.kubernetes.io/component'] === role,
      );
      const pod = deployment?.spec?.template.spec;
      const container = pod?.containers[0];
      expect(deployment?.spec?.replicas).toBe(2);
      const { version } = JSON.parse(read('package.json')) as { version: string };
      expect(container?.image).toBe(`registry.example.com/regdesk:${version}`);
      // `args` keeps the image's ENTRYPOINT (bin/regdesk, Node's launch flags); `command` would replace it.
      expect(container?.args).toEqual([role]);
      expect(container?.command).toBeUndefined();
      expect(config[variable]).toBe(String(port));
      // A web pod's metrics have a port of their own (METRICS_PORT), which no ingress routes to.
      expect(container?.ports).toEqual([
        { name: 'http', containerPort: port },
        ...(role === 'web' ? [{ name: 'metrics', containerPort: Number(config.METRICS_PORT) }] : []),
      ]);
      expect(container?.envFrom).toEqual([
        { configMapRef: { name: 'regdesk-config' } },
        { secretRef: { name: secretExample?.metadata?.name } },
      ]);
      const probe = { port: 'http' };
      expect(container?.livenessProbe?.httpGet).toEqual({ path: '/livez', ...probe });
      expect(container?.readinessProbe?.httpGet).toEqual({ path: '/readyz', ...probe });
      expect(container?.startupProbe?.httpGet).toEqual({ path: '/livez', ...probe });
      expect(container?.resources?.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
      expect(container?.resources?.limits?.memory).toBeDefined();
      const mib = (quantity: unknown) => Number(/^(\d+)Mi$/.exec(String(quantity))?.[1]);
      expect(mib(container?.resources?.limits?.memory)).toBeGreaterThan(
        mib(container?.resources?.requests?.memory),
      );
      // The same 20 s the compose files give (stop_grace_period), for the shutdown README describes.
      expect(pod?.terminationGracePeriodSeconds).toBe(20);
      expect(pod?.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(container?.securityContext).toMatchObject({ readOnlyRootFilesystem: true });
      // The one path Regdesk writes (claim files) is a volume.
      const mount = container?.volumeMounts?.find((m) => m.mountPath === config.REGDESK_DATA_DIR);
      expect(pod?.volumes?.find((v) => v.name === mount?.name)?.emptyDir).toBeDefined();
    },
  );

  it('enforces the restricted Pod Security profile on the namespace, and every pod meets it', () => {
    const [namespace] = ofKind(Namespace, 'Namespace');
    expect(namespace?.metadata?.labels).toMatchObject({
      'pod-security.kubernetes.io/enforce': 'restricted',
      'pod-security.kubernetes.io/enforce-version': 'latest',
    });
    // The profile's rules (kubernetes.io/docs/concepts/security/pod-security-standards, "Restricted").
    for (const deployment of deployments) {
      const name = deployment.metadata?.name;
      const pod = deployment.spec?.template.spec;
      expect(pod?.hostNetwork ?? false, name).toBe(false);
      expect(pod?.hostPID ?? false, name).toBe(false);
      expect(pod?.hostIPC ?? false, name).toBe(false);
      expect(pod?.securityContext?.runAsNonRoot, name).toBe(true);
      expect(pod?.securityContext?.runAsUser, name).not.toBe(0);
      expect(pod?.securityContext?.seccompProfile?.type, name).toBe('RuntimeDefault');
      for (const volume of pod?.volumes ?? []) {
        const types = Object.keys(volume).filter((key) => key !== 'name');
        expect(types, `${name} ${volume.name}`).toEqual([
          expect.stringMatching(
            /^(configMap|csi|downwardAPI|emptyDir|ephemeral|persistentVolumeClaim|projected|secret)$/,
          ),
        ]);
      }
      for (const container of [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])]) {
        const context = container.securityContext;
        expect(context?.privileged ?? false, container.name).toBe(false);
        expect(context?.allowPrivilegeEscalation, container.name).toBe(false);
        expect(context?.capabilities?.drop, container.name).toContain('ALL');
        expect(context?.capabilities?.add ?? [], container.name).toEqual([]);
        expect(context?.runAsUser ?? 1000, container.name).not.toBe(0);
        for (const port of container.ports ?? []) expect(port.hostPort, container.name).toBeUndefined();
      }
    }
  });

  it('covers each Deployment with one PodDisruptionBudget (minAvailable 1) that selects its pods', () => {
    const budgets = ofKind(PodDisruptionBudget, 'PodDisruptionBudget');
    expect(budgets).toHaveLength(deployments.length);
    for (const deployment of deployments) {
      const labels = deployment.spec?.template.metadata?.labels ?? {};
      expect(selects(deployment.spec?.selector, labels), deployment.metadata?.name).toBe(true);
      const covering = budgets.filter((budget) => selects(budget.spec?.selector, labels));
      expect(covering.map((budget) => budget.spec?.minAvailable)).toEqual([1]);
    }
  });

  it('sends the web Service to the web pods only, on their named port', () => {
    const [service] = ofKind(Service, 'Service');
    const chosen = deployments.filter((d) =>
      selects({ matchLabels: service?.spec?.selector ?? {} }, d.spec?.template.metadata?.labels ?? {}),
    );
    expect(chosen.map((d) => d.metadata?.name)).toEqual(['regdesk-web']);
    expect(service?.spec?.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http' }]);
  });
});
