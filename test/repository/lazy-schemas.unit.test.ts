import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * Loaded only where they are used (docs/memory.md): the MCP endpoint when configured, the playground
 * in playground mode. The MCP SDK reads its tools' input shapes when they are registered.
 */
const LOADED_WHEN_USED = ['src/features/mcp', 'src/playground'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/**
 * docs/memory.md "zod schemas": a zod 4 schema costs about 2 KB of heap, and Regdesk declares some
 * 1,600 of them at module level; built at import, every process would hold all of them (3 MB) whether
 * it parses with them or not. Declared with `z.lazy`, a schema is built when first parsed.
 */
describe('module-level zod schemas', () => {
  it('are declared with z.lazy, so a process builds only those it parses with', () => {
    const eager = files(join(ROOT, 'src'))
      .filter((path) => !LOADED_WHEN_USED.some((dir) => relative(ROOT, path).startsWith(dir)))
      .flatMap((path) =>
        [...readFileSync(path, 'utf8').matchAll(/^(?:export )?const (\w+) = z\.(?!lazy\()/gm)].map(
          (match) => `${relative(ROOT, path)}: ${match[1]}`,
        ),
      );
    expect(eager).toEqual([]);
  });

  it('parse as they did: a lazy schema builds its inner schema once and keeps it', async () => {
    const { DnsRecord } = await import('../../src/registrar/index.js');
    const record = { name: 'www', type: 'A', data: '192.0.2.1', ttl: 300, extra: 'kept' };
    expect(DnsRecord.parse(record)).toEqual(record);
    expect(DnsRecord.safeParse({ name: 'www' }).success).toBe(false);
    const build = vi.fn(() => z.object({ name: z.string() }));
    const lazy = z.lazy(build);
    expect(build).not.toHaveBeenCalled();
    expect(lazy.parse({ name: 'a' })).toEqual({ name: 'a' });
    expect(lazy.safeParse({ name: 1 }).success).toBe(false);
    expect(build).toHaveBeenCalledTimes(1);
  });
});
