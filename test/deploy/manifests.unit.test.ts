import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * The deployment examples (docs/scaling.md, docs/operations.md): the compose files against the
 * Compose Specification's JSON schema (test/fixtures/compose-spec, see its README), the Caddyfile and
 * the compose Prometheus against the compose files, and the Dockerfile. kubernetes.unit.test.ts checks
 * the Kubernetes manifests; test/scale/compose.unit.test.ts the Regdesk and Redis services of the
 * compose files.
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
  profiles?: string[];
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
    expect(services.caddy?.image).toMatch(/^caddy:2\.\d+\.\d+$/);
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

describe.each(COMPOSE_FILES)('%s: images and monitoring', (file) => {
  const { services } = compose(file);
  const webs = Object.entries(services).filter(([, service]) => service.command?.[0] === 'web');
  const workers = Object.entries(services).filter(([, service]) => service.command?.[0] === 'worker');

  it('pins every image it pulls to a release (Renovate proposes the next), and runs Valkey 8 as the store', () => {
    const pulled = Object.entries(services).filter(([, service]) => service.image !== 'regdesk:local');
    expect(pulled.length).toBeGreaterThanOrEqual(3);
    for (const [name, service] of pulled) expect(service.image, name).toMatch(/^[\w./-]+:v?\d+\.\d+\.\d+$/);
    const stores = pulled.filter(([name]) => name.startsWith('redis'));
    expect(stores.length).toBeGreaterThanOrEqual(1);
    for (const [name, service] of stores) expect(service.image, name).toMatch(/^valkey\/valkey:8\./);
  });

  it('scrapes every web process on METRICS_PORT and every worker on WORKER_PORT, with the shipped rules', () => {
    const config = parse(read('deploy/prometheus/prometheus.yml')) as {
      rule_files: string[];
      scrape_configs: Array<{ job_name: string; static_configs: Array<{ targets: string[] }> }>;
    };
    const [job] = config.scrape_configs;
    expect(config.scrape_configs).toHaveLength(1);
    const port = (service: ComposeService, variable: 'METRICS_PORT' | 'WORKER_PORT') =>
      service.environment?.[variable];
    expect(job?.static_configs.flatMap((group) => group.targets).sort()).toEqual(
      [
        ...webs.map(([name, service]) => `${name}:${port(service, 'METRICS_PORT')}`),
        ...workers.map(([name, service]) => `${name}:${port(service, 'WORKER_PORT')}`),
      ].sort(),
    );
    // The web processes' /metrics on PORT would answer this container 403: never a target.
    for (const [name] of webs) expect(job?.static_configs[0]?.targets, name).not.toContain(`${name}:3000`);
    const prometheus = services.prometheus;
    expect(prometheus?.profiles).toEqual(['monitoring']);
    expect(prometheus?.ports).toBeUndefined();
    expect(prometheus?.volumes).toContain(
      './deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro',
    );
    const rules = prometheus?.volumes?.find((volume) =>
      volume.startsWith('./deploy/prometheus/regdesk-alerts.yml:'),
    );
    expect(rules?.split(':')[1]).toBe(config.rule_files[0]);
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

// ---- Dockerfile ----------------------------------------------------------------------------------

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const code = dockerfile.replace(/^#(?! syntax).*$/gm, '');
  const pkg = JSON.parse(read('package.json')) as { version: string; license: string };
  const stages = code.split(/^FROM /m).slice(1);
  const [build = '', runtime = ''] = stages;
  /** How the Dockerfile writes a build argument's value: `${NAME}`. */
  const arg = (name: string) => `\${${name}}`;

  it('builds both stages from one Node image, pinned to a release and by digest', () => {
    const image = /^ARG NODE_IMAGE=(\S+)$/m.exec(code)?.[1];
    expect(image).toMatch(/^node:\d+\.\d+\.\d+-[a-z]+-slim@sha256:[0-9a-f]{64}$/);
    expect(stages.map((stage) => stage.split(/\s/)[0])).toEqual([arg('NODE_IMAGE'), arg('NODE_IMAGE')]);
    // Renovate's dockerfile manager reads the ARG and updates tag and digest in the `node` group.
    const renovate = JSON.parse(read('renovate.json')) as {
      extends: string[];
      packageRules: Array<{
        matchManagers?: string[];
        matchDepNames?: string[];
        groupName?: string;
        pinDigests?: boolean;
      }>;
    };
    expect(renovate.extends).toContain('config:recommended');
    const node = renovate.packageRules.find((rule) => rule.groupName === 'node');
    expect(node?.matchManagers).toContain('dockerfile');
    expect(node?.matchDepNames).toContain('node');
    expect(renovate.packageRules.some((rule) => rule.pinDigests === false)).toBe(false);
  });

  it('installs once and prunes the dev dependencies, instead of a second `npm ci`', () => {
    expect(build).toMatch(/^RUN npm ci /m);
    expect(build).toMatch(/^RUN npm prune --omit=dev/m);
    expect(runtime).not.toMatch(/npm (ci|install)/);
    expect(runtime).toMatch(/^COPY --from=build \/app\/node_modules \.\/node_modules$/m);
    expect(runtime).toMatch(/^USER node$/m);
  });

  it('labels the image with the OCI annotations: title, version of package.json, commit, licence, base', () => {
    const label = (key: string) =>
      new RegExp(`org\\.opencontainers\\.image\\.${key}="([^"]*)"`).exec(runtime)?.[1];
    expect(label('title')).toBe('Regdesk');
    expect(label('version')).toBe(arg('REGDESK_VERSION'));
    expect(/^ARG REGDESK_VERSION=(\S+)$/m.exec(runtime)?.[1]).toBe(pkg.version);
    expect(label('revision')).toBe(arg('REGDESK_COMMIT'));
    expect(label('licenses')).toBe(pkg.license);
    expect(label('base.name')).toBe(arg('NODE_IMAGE'));
    expect(label('description')).toBeDefined();
  });

  it('starts Regdesk through bin/regdesk, the one place Node flags are set', () => {
    expect(runtime).toMatch(/^ENTRYPOINT \["\/app\/bin\/regdesk"\]$/m);
    expect(code).not.toMatch(/NODE_OPTIONS|--max-semi-space-size|--v8-pool-size|--optimize-for-size/);
    expect(read('bin/regdesk')).toMatch(/--v8-pool-size=1/);
  });
});
