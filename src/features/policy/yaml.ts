import { LineCounter, parseDocument, stringify } from 'yaml';
import { type DocumentError, PolicyDocument } from './document.js';

/**
 * The policy document as YAML text, both ways. Apart from document.ts so that the `yaml` library is
 * loaded only where YAML is read or written (`regdesk policy`, `/domain policy export`), not by every
 * process that applies a policy.
 */

const pathOf = (path: readonly PropertyKey[]): string =>
  path.reduce<string>(
    (shown, key) =>
      typeof key === 'number' ? `${shown}[${key}]` : shown === '' ? String(key) : `${shown}.${String(key)}`,
    '',
  );

/** Reads a policy document from YAML: every error with its path, or the document. */
export function parsePolicyYaml(
  source: string,
): { ok: true; document: PolicyDocument } | { ok: false; errors: DocumentError[] } {
  const lines = new LineCounter();
  const parsed = parseDocument(source, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (parsed.errors.length > 0)
    return {
      ok: false,
      errors: parsed.errors.map((error) => ({
        // Not a document yet: the place is a line of the text.
        path: `line ${lines.linePos(error.pos[0]).line}`,
        message: error.message.split('\n')[0] ?? error.message,
      })),
    };
  const result = PolicyDocument.safeParse(parsed.toJS() ?? {});
  if (!result.success)
    return {
      ok: false,
      errors: result.error.issues.map((issue) => ({ path: pathOf(issue.path), message: issue.message })),
    };
  return { ok: true, document: result.data };
}

/** The document as YAML, in the contract's field order. */
export function policyYaml(document: PolicyDocument): string {
  return stringify(document, { lineWidth: 100 });
}
