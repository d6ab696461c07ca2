import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { findProgram } from '../helpers/debian.js';
import { promtool } from '../helpers/promtool.js';

/**
 * deploy/ through the tools that consume it: the PrometheusRule generator (`--check`), promtool on the
 * generated rule, and `kubectl kustomize` on the whole directory (where kubectl exists).
 */

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GENERATOR = 'deploy/kubernetes/generate-prometheusrule.mjs';
const scratch = mkdtempSync(join(tmpdir(), 'regdesk-deploy-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Exit code and output of `node GENERATOR args` in `root` (the repository or a copy of its deploy/). */
async function generator(root: string, args: string[] = []): Promise<{ code: number; output: string }> {
  return run(process.execPath, [join(root, GENERATOR), ...args]).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? 1,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );
}

describe('deploy/kubernetes/prometheusrule.yaml', () => {
  it('is what the generator makes of deploy/prometheus/regdesk-alerts.yml', async () => {
    expect(await generator(ROOT, ['--check'])).toEqual({ code: 0, output: '' });
  });

  it('is found out of date after a rule changes, and written anew by the generator', async () => {
    const copy = join(scratch, 'generator');
    mkdirSync(copy);
    cpSync(join(ROOT, 'deploy'), join(copy, 'deploy'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    const rules = join(copy, 'deploy/prometheus/regdesk-alerts.yml');
    writeFileSync(rules, readFileSync(rules, 'utf8').replace('for: 2m', 'for: 3m'));
    const stale = await generator(copy, ['--check']);
    expect(stale.code).toBe(1);
    expect(stale.output).toContain('run `node deploy/kubernetes/generate-prometheusrule.mjs`');
    expect((await generator(copy)).code).toBe(0);
    expect(await generator(copy, ['--check'])).toEqual({ code: 0, output: '' });
    expect(readFileSync(join(copy, 'deploy/kubernetes/prometheusrule.yaml'), 'utf8')).toContain('for: 3m');
  });

  it('holds rules promtool accepts, every alert of the rule file', async () => {
    const resource = parse(readFileSync(join(ROOT, 'deploy/kubernetes/prometheusrule.yaml'), 'utf8')) as {
      spec: { groups: unknown };
    };
    const file = join(scratch, 'from-prometheusrule.yml');
    writeFileSync(file, JSON.stringify({ groups: resource.spec.groups }));
    const checked = await promtool(['check', 'rules', file]);
    expect(checked.output).toContain('SUCCESS: 11 rules found');
    expect(checked.code).toBe(0);
  });
});

const kubectl = findProgram('kubectl');

describe.skipIf(kubectl === undefined)(
  kubectl === undefined
    ? 'kubectl kustomize deploy/kubernetes: skipped, no kubectl on this machine'
    : 'kubectl kustomize deploy/kubernetes',
  () => {
    const render = async (dir: string) =>
      parseAllDocuments((await run(kubectl ?? 'kubectl', ['kustomize', dir])).stdout).map(
        (doc) => doc.toJS() as { kind: string; metadata: { name: string; namespace?: string } },
      );

    it('renders every object into the namespace kustomization.yaml names', async () => {
      const objects = await render(join(ROOT, 'deploy/kubernetes'));
      expect(objects.map((o) => o.kind).sort()).toEqual(
        [
          'ConfigMap',
          'Deployment',
          'Deployment',
          'Namespace',
          'NetworkPolicy',
          'NetworkPolicy',
          'NetworkPolicy',
          'PodDisruptionBudget',
          'PodDisruptionBudget',
          'PodMonitor',
          'PrometheusRule',
          'Service',
        ].sort(),
      );
      for (const object of objects) {
        if (object.kind === 'Namespace') expect(object.metadata.name).toBe('regdesk');
        else expect(object.metadata.namespace, `${object.kind} ${object.metadata.name}`).toBe('regdesk');
      }
    });

    it('moves everything to another namespace when an overlay names it', async () => {
      const overlay = join(scratch, 'overlay');
      mkdirSync(overlay);
      writeFileSync(
        join(overlay, 'kustomization.yaml'),
        // kustomize takes bases by relative path only.
        `resources:\n  - ${relative(overlay, join(ROOT, 'deploy/kubernetes'))}\nnamespace: regdesk-staging\n`,
      );
      const objects = await render(overlay);
      for (const object of objects) {
        const where = object.kind === 'Namespace' ? object.metadata.name : object.metadata.namespace;
        expect(where, `${object.kind} ${object.metadata.name}`).toBe('regdesk-staging');
      }
    });
  },
);
