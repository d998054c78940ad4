// Validates XLIFF text against the OASIS strict schema with xmllint (apt package libxml2-utils), for tests.
// The schema (and the xml.xsd it imports) is copied into test/fixtures/schemas/ so the tests need nothing
// outside the repository.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCHEMA = fileURLToPath(new URL('../fixtures/schemas/xliff-core-1.2-strict.xsd', import.meta.url));

const xmllintAvailable = spawnSync('xmllint', ['--version']).status === 0;

/**
 * Why a schema test may not run: only when xmllint is missing outside CI (in CI a missing xmllint must fail).
 * Undefined when the test can run.
 */
export const schemaSkipReason =
  xmllintAvailable || process.env.CI === 'true'
    ? undefined
    : 'xmllint not installed (apt-get install libxml2-utils): XLIFF schema validation SKIPPED';

/** The validation errors xmllint reports, or "" when the document validates. */
export function schemaErrors(xml: string): string {
  const run = spawnSync('xmllint', ['--noout', '--schema', SCHEMA, '-'], { input: xml, encoding: 'utf8' });
  if (run.error) throw run.error;
  return run.status === 0 ? '' : run.stderr;
}

const TMX_DTD = fileURLToPath(new URL('../fixtures/schemas/tmx14.dtd', import.meta.url));

/** The errors xmllint reports validating TMX text against the TMX 1.4 DTD, or "" when it is valid. */
export function tmxErrors(xml: string): string {
  const run = spawnSync('xmllint', ['--noout', '--dtdvalid', TMX_DTD, '-'], { input: xml, encoding: 'utf8' });
  if (run.error) throw run.error;
  return run.status === 0 ? '' : run.stderr;
}

/** The errors xmllint reports reading XML text (well-formedness only, no schema), or "" when it is well-formed. */
export function wellFormedErrors(xml: string): string {
  const run = spawnSync('xmllint', ['--noout', '-'], { input: xml, encoding: 'utf8' });
  if (run.error) throw run.error;
  return run.status === 0 ? '' : run.stderr;
}
