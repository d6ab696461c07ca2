import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every relative link in the top-level pages (README.md, CONTRIBUTING.md …) and docs/*.md leads somewhere: to a file or folder of the
 * repository, and, with a `#fragment` into a Markdown page, to one of its headings (GitHub's anchors).
 * The README sends readers to docs/ for everything but the first hour (issue #47), so a moved or
 * renamed section must take its links with it.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pages = [
  ...readdirSync(ROOT).filter((name) => name.endsWith('.md')),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Markdown without its code: fenced blocks and inline code hold examples, not links. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to `-`, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const match of markdown
    .replace(/^(```|~~~)[\s\S]*?^\1/gm, '')
    .matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = (match[1] ?? '')
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return found;
}

function links(page: string): string[] {
  const text = prose(readFileSync(join(ROOT, page), 'utf8'));
  return [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

function broken(page: string, target: string): string | undefined {
  const [path = '', fragment] = target.split('#');
  const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURI(path));
  if (relative(ROOT, file).startsWith('..')) return 'leads out of the repository';
  if (!existsSync(file)) return 'no such file';
  if (fragment === undefined || fragment === '' || statSync(file).isDirectory() || !file.endsWith('.md'))
    return undefined;
  return anchors(readFileSync(file, 'utf8')).has(decodeURIComponent(fragment).toLowerCase())
    ? undefined
    : 'no such heading';
}

describe('links in README.md and docs/', () => {
  it('finds the pages and their links', () => {
    expect(pages.length).toBeGreaterThan(10);
    expect(links('README.md').length).toBeGreaterThan(10);
  });

  it.each(pages)('every relative link in %s leads to a file and heading that exist', (page) => {
    const bad = links(page).flatMap((target) => {
      const why = broken(page, target);
      return why === undefined ? [] : [`${target}: ${why}`];
    });
    expect(bad).toEqual([]);
  });

  it('reads GitHub’s anchors as GitHub does', () => {
    expect([...anchors('# Data, persistence & backup\n## `regdesk doctor`\n## Probes\n## Probes\n')]).toEqual(
      ['data-persistence--backup', 'regdesk-doctor', 'probes', 'probes-1'],
    );
  });

  it('keeps the README short, with the two commands on its first screen (issue #47)', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
    expect(readme.length).toBeLessThan(300);
    const firstScreen = readme.slice(0, 40).join('\n');
    expect(firstScreen).toContain('npm ci && npm start');
    expect(firstScreen).toContain('npm ci && npm test');
  });
});
