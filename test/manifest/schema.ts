import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';

/** Slack's app manifest JSON schema and its fixtures (test/fixtures/manifest-schema, see its README). */
export const schemaFixture = (path: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/manifest-schema/${path}`, import.meta.url), 'utf8'));

/** A validator for Slack's app manifest schema (v1, what "From an app manifest" accepts). */
export function manifestValidator(): ValidateFunction {
  // The upstream schema uses the non-standard keywords `regex` and `_note`.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addKeyword('regex');
  ajv.addKeyword('_note');
  return ajv.compile(schemaFixture('schemas_manifest.schema.1.0.0.json') as object);
}
