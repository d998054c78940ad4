import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contextLabel } from './context-labels.ts';

test('HTML contexts read as what the element is', () => {
  assert.deepEqual(contextLabel('p', 'html'), { label: 'Paragraph' });
  assert.deepEqual(contextLabel('dt', 'html'), { label: 'Definition term' });
  assert.deepEqual(contextLabel('h2', 'html'), { label: 'Heading 2' });
  assert.deepEqual(contextLabel('img[alt]', 'html'), { label: 'Text alternative of an image' });
  assert.deepEqual(contextLabel('a[title]', 'html'), { label: 'Tooltip of a link' });
  assert.deepEqual(contextLabel('meta[name=description]', 'html'), { label: 'Page description' });
  assert.deepEqual(contextLabel('kbd', 'html'), { label: 'Element <kbd>' });
});

test('PO plural forms count from 1 and keep msgstr[n]; a msgctxt is shown as written', () => {
  assert.deepEqual(contextLabel('msgstr[0]', 'po'), { label: 'Plural form 1 (msgstr[0])' });
  assert.deepEqual(contextLabel('menu msgstr[1]', 'po'), {
    label: 'Plural form 2 (msgstr[1]), message context',
    detail: 'menu',
  });
  assert.deepEqual(contextLabel('File menu', 'po'), { label: 'Message context', detail: 'File menu' });
});

test('other formats: blocks, parts and styles, keys', () => {
  assert.deepEqual(contextLabel('list item', 'markdown'), { label: 'List item' });
  assert.deepEqual(contextLabel('word/document.xml (Heading1)', 'docx'), {
    label: 'Document body, style Heading1',
  });
  assert.deepEqual(contextLabel('word/footnotes.xml', 'docx'), { label: 'Footnote' });
  assert.deepEqual(contextLabel('app.menu.open', 'json'), { label: 'Key', detail: 'app.menu.open' });
  assert.deepEqual(contextLabel('files_deleted[one]', 'android'), {
    label: 'Plural “one” of string',
    detail: 'files_deleted',
  });
  assert.equal(contextLabel(null, 'html'), null);
  assert.equal(contextLabel('', 'po'), null);
});
