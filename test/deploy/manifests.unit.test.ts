import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { ConfigError, loadConfig } from '../../src/config.js';

/**
 * The deployment examples (README "Running at scale"): the compose files against the
 * Compose Specification's JSON schema (test/fixtures/compose-spec, see its README), the Caddyfile
 * against the compose files, and the Kubernetes manifests against the Kubernetes API schema
 * (`kubernetes-models`) and the probes, resources and selectors README "Probes" asks for.
 * test/scale/compose.unit.test.ts checks the Regdesk and Redis services of the compose files.
 */

const ROOT = new URL('../../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, ROOT), 'utf8');

// ---- Compose -------------------------------------------------------------------------------------

interface ComposeService {
  image?: string;
  command?: string[];
  ports?: string[];
  expose?: string[];
  deploy?: { replicas?: number };
  healthcheck?: { test: string[] };
  logging?: { driver: string; options?: Record<string, string> };
  stop_grace_period?: string;
  volumes?: string[];
  environment?: Record<string, string>;
}
interface ComposeFile {
  services: Record<string, ComposeService>;
}

// `merge: true`: the files share settings through YAML merge keys (`<<: *regdesk`), as Compose reads them.
const compose = (file: string): ComposeFile => parse(read(file), { merge: true }) as ComposeFile;
const COMPOSE_FILES = ['compose.yaml', 'compose.cluster.yaml'];

describe.each(COMPOSE_FILES)('%s', (file) => {
  const { services } = compose(file);
  const regdesk = Object.entries(services).filter(([, service]) => service.image === 'regdesk:local');
  const webs = regdesk.filter(([, service]) => service.command?.[0] === 'web');
  const workers = regdesk.filter(([, service]) => service.command?.[0] === 'worker');

  it('is valid under the Compose Specification schema', () => {
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    const { $schema, ...schema } = JSON.parse(read('test/fixtures/compose-spec/compose-spec.json')) as {
      $schema: string;
    };
    // The schema names draft-07 by an https URL Ajv has no entry for; draft-07 is Ajv's default draft.
    expect($schema).toContain('draft-07');
    const validate = ajv.compile(schema);
    validate(compose(file));
    expect(validate.errors ?? []).toEqual([]);
  });

  it('publishes only the proxy: 80 and 443 (TCP and UDP for HTTP/3), nothing of Regdesk or Redis', () => {
    const published = Object.entries(services).filter(([, service]) => (service.ports ?? []).length > 0);
    expect(published.map(([name]) => name)).toEqual(['caddy']);
    expect(services.caddy?.ports).toEqual(['80:80', '443:443', '443:443/udp']);
    expect(services.caddy?.image).toBe('caddy:2');
    expect(services.caddy?.volumes).toContain('./deploy/caddy/Caddyfile:/etc/caddy/Caddyfile:ro');
    // Compose refuses to start without the host name rather than ask a CA for a wrong one.
    expect(services.caddy?.environment?.REGDESK_HOST).toMatch(/^\$\{REGDESK_HOST:\?.+\}$/);
  });

  it('rotates the logs of every service', () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.logging?.driver, name).toMatch(/^(local|json-file)$/);
      expect(Object.keys(service.logging?.options ?? {}).sort(), name).toEqual(['max-file', 'max-size']);
    }
  });

  it('runs two web and two worker processes, each health-checked on its own port', () => {
    const replicas = (list: typeof regdesk) =>
      list.reduce((sum, [, service]) => sum + (service.deploy?.replicas ?? 1), 0);
    expect(replicas(webs)).toBe(2);
    expect(replicas(workers)).toBe(2);
    for (const [name, service] of regdesk) {
      const port = service.command?.[0] === 'web' ? 3000 : 3001;
      expect(service.healthcheck?.test.join(' '), name).toContain(`http://127.0.0.1:${port}/healthz`);
      expect(service.stop_grace_period, name).toBe('20s');
    }
  });

  it('has the Caddyfile balance over exactly its web services and health-check them on /readyz', () => {
    const caddyfile = read('deploy/caddy/Caddyfile');
    const upstreams = /^\s*reverse_proxy (.+) \{$/m.exec(caddyfile)?.[1]?.split(' ');
    expect(upstreams?.sort()).toEqual(webs.map(([name]) => `${name}:3000`).sort());
    for (const [, web] of webs) expect(web.deploy?.replicas ?? 1).toBe(1);
    expect(caddyfile).toMatch(/^\s*health_uri \/readyz$/m);
  });
});

describe('deploy/caddy/Caddyfile', () => {
  const caddyfile = read('deploy/caddy/Caddyfile');
  const code = caddyfile.replace(/#.*$/gm, '');

  it('serves the host from REGDESK_HOST and forwards only Slack and the probes, never /metrics', () => {
    expect(code).toMatch(/^\{\$REGDESK_HOST\} \{$/m);
    const forwarded = /@public path (.+)$/m.exec(code)?.[1]?.trim().split(/\s+/);
    expect(forwarded).toEqual(['/slack/*', '/livez', '/readyz', '/healthz']);
    expect(code).not.toContain('metrics');
    // Everything else ends in a 404 instead of reaching Regdesk.
    expect(code).toMatch(/handle \{\s*respond 404\s*\}/);
  });
});

// ---- Kubernetes ----------------------------------------------------------------------------------

const K8S = 'deploy/kubernetes/';
type Validatable = { validate(): void };
/** The kinds these manifests use; a new kind needs its model here, so nothing goes unchecked. */
const MODELS: Record<string, new (data: never) => Validatable> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

const manifestFiles = readdirSync(new URL(K8S, ROOT)).filter(
  (name) => name.endsWith('.yaml') && name !== 'kustomization.yaml',
);
const documentsOf = (name: string): Array<Record<string, unknown>> =>
  parseAllDocuments(read(K8S + name)).map((doc) => {
    expect(doc.errors, name).toEqual([]);
    return doc.toJS() as Record<string, unknown>;
  });
const all = manifestFiles.flatMap((file) => documentsOf(file).map((doc) => ({ file, doc })));
const ofKind = <T>(Model: new (data: never) => T, kind: string): T[] =>
  all.filter(({ doc }) => doc.kind === kind).map(({ doc }) => new Model(doc as never));

const deployments = ofKind(Deployment, 'Deployment');
const config = ofKind(ConfigMap, 'ConfigMap')[0]?.data ?? {};
const secretExample = ofKind(Secret, 'Secret')[0];

interface Selector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}
/** Kubernetes' label selector semantics (matchLabels and matchExpressions, all ANDed). */
function selects(selector: Selector | undefined, labels: Record<string, string>): boolean {
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

describe('deploy/kubernetes', () => {
  it('validates every document against the Kubernetes API schema', () => {
    expect(all.length).toBeGreaterThanOrEqual(8);
    for (const { file, doc } of all) {
      const Model = MODELS[`${String(doc.apiVersion)}/${String(doc.kind)}`];
      expect(Model, `${file}: ${String(doc.kind)}`).toBeDefined();
      if (Model === undefined) continue;
      expect(() => new Model(doc as never).validate(), file).not.toThrow();
      const { namespace } = doc.metadata as { namespace?: string };
      expect(namespace, file).toBe(doc.kind === 'Namespace' ? undefined : 'regdesk');
    }
  });

  it('applies every manifest but the Secret example through kustomization.yaml', () => {
    const kustomization = parse(read(`${K8S}kustomization.yaml`)) as { resources: string[] };
    expect(kustomization.resources.sort()).toEqual(
      manifestFiles.filter((f) => !f.includes('example')).sort(),
    );
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
