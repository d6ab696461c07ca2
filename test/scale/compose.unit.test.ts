import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from '../../src/config.js';

/**
 * No Docker daemon runs here, so the compose files are checked as data: the services an operator
 * expects, health checks on the endpoints Regdesk serves, and only variables Regdesk reads.
 */
interface Service {
  image?: string;
  build?: string;
  command?: string[] | string;
  entrypoint?: string[];
  environment?: Record<string, string>;
  env_file?: Array<{ path: string; required: boolean }>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  networks?: Record<string, { ipv4_address: string }> | string[];
}
interface Compose {
  services: Record<string, Service>;
}

const load = (file: string) =>
  parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'), { merge: true }) as Compose;

const REGDESK = ['web-1', 'web-2', 'worker-1', 'worker-2'];

function regdeskServices(compose: Compose) {
  return REGDESK.map((name) => {
    const service = compose.services[name];
    if (service === undefined) throw new Error(`no service ${name}`);
    return { name, service };
  });
}

function commandLine(service: Service): string {
  return Array.isArray(service.command) ? service.command.join(' ') : (service.command ?? '');
}

describe.each(['compose.yaml', 'compose.cluster.yaml'])('%s', (file) => {
  const compose = load(file);

  it('runs two web and two worker containers of the built image, with the operator’s env file', () => {
    for (const { name, service } of regdeskServices(compose)) {
      expect(service.build, name).toBe('.');
      expect(service.command, name).toEqual([name.startsWith('web') ? 'web' : 'worker']);
      expect(service.env_file, name).toEqual([{ path: 'regdesk.env', required: true }]);
    }
  });

  it('checks web health on PORT 3000 and worker health on WORKER_PORT 3001 (/healthz)', () => {
    for (const { name, service } of regdeskServices(compose)) {
      const probe = service.healthcheck?.test.join(' ') ?? '';
      const port = name.startsWith('web') ? 3000 : loadConfig(service.environment ?? {}).workerPort;
      expect(probe, name).toContain(`http://127.0.0.1:${port}/healthz`);
    }
    expect(loadConfig({}).workerPort).toBe(3001);
    expect(loadConfig({}).port).toBe(3000);
  });

  it('sets only variables Regdesk reads, and a Redis configuration it accepts', () => {
    for (const { name, service } of regdeskServices(compose)) {
      const environment = service.environment ?? {};
      for (const variable of Object.keys(environment)) expect(CONFIG_VARIABLES, name).toContain(variable);
      expect(() => loadConfig(environment), name).not.toThrow();
      expect(loadConfig(environment).redis.connection, name).toBeDefined();
    }
  });

  it('gives every Redis node noeviction and AOF persistence, and a health check', () => {
    // Valkey 8 by default (compose.yaml says why); Redis itself (redis-server, redis-cli) is the same.
    const nodes = Object.entries(compose.services).filter(([, service]) =>
      /^(valkey|redis)-server /.test(commandLine(service)),
    );
    expect(nodes.length).toBeGreaterThanOrEqual(1);
    for (const [name, service] of nodes) {
      expect(commandLine(service), name).toMatch(/--maxmemory-policy noeviction/);
      expect(commandLine(service), name).toMatch(/--appendonly yes/);
      const cli = commandLine(service).startsWith('valkey') ? 'valkey-cli' : 'redis-cli';
      expect(service.healthcheck?.test, name).toEqual(['CMD', cli, 'ping']);
    }
  });
});

describe('compose.yaml', () => {
  const compose = load('compose.yaml');
  it('points every process at the one Redis service and starts them once it is healthy', () => {
    for (const { name, service } of regdeskServices(compose)) {
      expect(service.environment?.REDIS_URL, name).toBe('redis://redis:6379');
      expect(service.depends_on, name).toEqual({ redis: { condition: 'service_healthy' } });
    }
  });
});

describe('compose.cluster.yaml', () => {
  const compose = load('compose.cluster.yaml');
  const nodes = ['redis-1', 'redis-2', 'redis-3'];
  const addressOf = (name: string) => {
    const networks = compose.services[name]?.networks;
    return Array.isArray(networks) || networks === undefined ? undefined : networks.regdesk?.ipv4_address;
  };

  it('has three cluster-enabled nodes, which the init container joins into one cluster', () => {
    for (const name of nodes)
      expect(commandLine(compose.services[name] ?? {}), name).toContain('--cluster-enabled yes');
    const init = compose.services['redis-init'];
    const script = commandLine(init ?? {});
    expect(script).toMatch(/(valkey|redis)-cli --cluster create/);
    expect(script).toContain('--cluster-yes');
    for (const name of nodes) expect(script).toContain(`${addressOf(name)}:6379`);
    expect(Object.keys(init?.depends_on ?? {}).sort()).toEqual(nodes);
  });

  it('gives Regdesk the three nodes as REDIS_CLUSTER_NODES and waits for the cluster to form', () => {
    const seeds = nodes.map((name) => `${addressOf(name)}:6379`).join(',');
    for (const { name, service } of regdeskServices(compose)) {
      expect(service.environment?.REDIS_CLUSTER_NODES, name).toBe(seeds);
      expect(service.environment?.REDIS_URL, name).toBeUndefined();
      expect(service.depends_on, name).toEqual({
        'redis-init': { condition: 'service_completed_successfully' },
      });
      expect(loadConfig(service.environment ?? {}).redis.connection?.target.mode).toBe('cluster');
    }
  });
});
