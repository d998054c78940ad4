// Every filter refuses a document nested past its bound with a FormatError that names the place, before a
// recursive walk or a library's quadratic step meets it; a document nested just inside the bound is read.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FormatError } from '../errors.ts';
import { androidFilter } from './android/android-filter.ts';
import type { FormatFilter } from './filter.ts';
import { htmlFilter } from './html/html-filter.ts';
import { xliffFilter } from './xliff/xliff-filter.ts';

const options = { srclang: 'en', trglang: 'de' };

const xliff = (n: number) =>
  '<?xml version="1.0"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">' +
  '<file source-language="en" target-language="de" datatype="plaintext" original="a"><body>\n' +
  `<trans-unit id="1"><source>${'<g id="1">'.repeat(n)}x${'</g>'.repeat(n)}</source></trans-unit>` +
  '</body></file></xliff>\n';
const android = (n: number) =>
  `<?xml version="1.0"?>\n<resources><string name="a">${'<b>'.repeat(n)}x${'</b>'.repeat(n)}</string></resources>\n`;
const html = (n: number) => `<html><body>\n${'<div>'.repeat(n)}x${'</div>'.repeat(n)}</body></html>\n`;

async function refused(filter: FormatFilter, text: string, message: RegExp, line: number) {
  await assert.rejects(filter.extract(Buffer.from(text), options), (e: unknown) => {
    assert.ok(e instanceof FormatError, String(e));
    assert.match(e.message, message);
    assert.equal(e.line, line);
    assert.ok(e.column !== undefined && e.column > 1, e.message);
    return true;
  });
}

test('XLIFF: 500 nested <g> are read, 513 open elements and 50,000 are refused at the one too many', async () => {
  const units = await xliffFilter.extract(Buffer.from(xliff(500)), options);
  assert.equal(units.length, 1);
  // xliff, file, body, trans-unit, source: the 508th <g> is the 513th element open.
  await refused(
    xliffFilter,
    xliff(508),
    /^XLIFF: elements nested more than 512 deep at line 3, column 5100$/,
    3,
  );
  await refused(xliffFilter, xliff(50_000), /nested more than 512 deep/, 3);
});

test('Android strings: inline markup 500 deep is read, 50,000 deep is refused', async () => {
  assert.equal((await androidFilter.extract(Buffer.from(android(500)), options)).length, 1);
  await refused(androidFilter, android(50_000), /^strings\.xml: elements nested more than 512 deep/, 2);
});

test('HTML: 500 nested elements are read, 50,000 are refused before the walk runs out of stack', async () => {
  assert.equal((await htmlFilter.extract(Buffer.from(html(500)), options)).length, 1);
  await refused(htmlFilter, html(50_000), /^HTML: elements nested more than 512 deep/, 2);
});

test('Markdown: markers stacked on one line and nesting past 256 are refused; a long thematic break is not', async () => {
  const { markdownFilter } = await import('./markdown/markdown-filter.ts');
  await refused(
    markdownFilter,
    `Intro.\n\n${'- '.repeat(4_000)}x\n`,
    /^Markdown: more than 64 block quotes/,
    3,
  );
  await refused(
    markdownFilter,
    `Intro.\n\n${'> '.repeat(100_000)}x\n`,
    /^Markdown: more than 64 block quotes/,
    3,
  );
  await refused(
    markdownFilter,
    `Intro.\n\n${'1. '.repeat(65)}x\n`,
    /^Markdown: more than 64 block quotes/,
    3,
  );
  const emphasis = `${'*a '.repeat(300)}x${' a*'.repeat(300)}\n`;
  await refused(markdownFilter, `Intro.\n\n${emphasis}`, /^Markdown: elements nested more than 256 deep/, 3);
  const units = await markdownFilter.extract(
    Buffer.from(
      `Intro.\n\n${'- '.repeat(60)}x\n\n${'- '.repeat(200)}\n\n${'*a '.repeat(100)}y${' a*'.repeat(100)}\n`,
    ),
    options,
  );
  assert.deepEqual(
    units.map((u) => u.source.replace(/<[^>]+>/g, '').slice(0, 8)),
    ['Intro.', 'x', 'a a a a '],
  );
});
