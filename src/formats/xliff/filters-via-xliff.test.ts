// The product promise across formats: a document's units exported as XLIFF validate, and read back the same.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { buildDocx } from '../../../test/helpers/docx-fixture.ts';
import { schemaErrors, schemaSkipReason } from '../../../test/helpers/xmllint.ts';
import { docxFilter } from '../docx/docx-filter.ts';
import type { FormatFilter } from '../filter.ts';
import { htmlFilter } from '../html/html-filter.ts';
import { markdownFilter } from '../markdown/markdown-filter.ts';
import { xliffFilter } from './xliff-filter.ts';
import { writeXliff } from './xliff-writer.ts';

const langs = { srclang: 'en', trglang: 'de' };
const fixture = (path: string) => readFileSync(new URL(path, import.meta.url));

const cases: [string, FormatFilter, () => Promise<Buffer>][] = [
  ['HTML', htmlFilter, async () => fixture('../html/fixtures/product-page.html')],
  ['Markdown', markdownFilter, async () => fixture('../markdown/fixtures/getting-started.md.txt')],
  ['DOCX', docxFilter, buildDocx],
  ['XLIFF', xliffFilter, async () => fixture('fixtures/angular-messages.xlf')],
];

for (const [name, filter, original] of cases) {
  test(`${name} units → XLIFF: valid against the strict schema, read back with the same sources`, async (t) => {
    const units = await filter.extract(await original(), langs);
    let xml = '';
    const doc = {
      original: `doc.${filter.name}`,
      ...langs,
      datatype: filter.name,
      units: units.map((u, i) => ({
        id: i + 1,
        source: u.source,
        context: u.context,
        target: u.target,
        state: u.state === 'new' ? undefined : u.state,
      })),
    };
    for await (const chunk of writeXliff(doc)) xml += chunk;
    const again = await xliffFilter.extract(Buffer.from(xml), langs);
    assert.deepEqual(
      again.map((u) => [u.source, u.context, u.target]),
      units.map((u) => [u.source, u.context, u.target]),
    );
    if (schemaSkipReason) t.skip(schemaSkipReason);
    else assert.equal(schemaErrors(xml), '');
  });
}
