import { readFileSync } from 'node:fs';

/** The version in package.json: the nearest one above this file (in `src/` or the built `dist/src/`). */
export function packageVersion(): string {
  for (let dir = new URL('.', import.meta.url); dir.pathname !== '/'; dir = new URL('..', dir)) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'regdesk' && pkg.version !== undefined) return pkg.version;
    } catch {
      // none at this level; look one up
    }
  }
  return 'unknown';
}
