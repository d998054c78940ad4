import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { contextFromProps, contextProps } from './tmx-context.ts';
import { readTmx, type TmxUnit } from './tmx-reader.ts';
import { writeTmx } from './tmx-writer.ts';

async function roundTrip(context: TmxUnit['context']): Promise<TmxUnit> {
  let xml = '';
  const header = { srclang: 'en', trglang: 'de', creationTool: 't', creationToolVersion: '1' };
  for await (const chunk of writeTmx([{ source: 'Click OK.', target: 'OK klicken.', context }], header))
    xml += chunk;
  const units: TmxUnit[] = [];
  for await (const u of readTmx(Readable.from([Buffer.from(xml)]), { srclang: 'en', trglang: 'de' }))
    units.push(u);
  return units[0];
}

describe('TMX contexts', () => {
  it("reads memoQ's <seg>-wrapped neighbours with their tags and escapes, XTM's plain ones, Trados's key", () => {
    assert.deepEqual(
      contextFromProps({
        'x-context-pre': '<seg><bpt i="1">{}</bpt>A &amp; B<ept i="1">{}</ept></seg>',
        'x-context-post': '<seg></seg>',
      }),
      { key: null, prev: '<bpt i="1">{}</bpt>A & B<ept i="1">{}</ept>', next: null },
    );
    assert.deepEqual(
      contextFromProps({ 'x-previous-source-text': 'Before.', 'x-next-source-text': 'After.' }),
      {
        key: null,
        prev: 'Before.',
        next: 'After.',
      },
    );
    assert.deepEqual(contextFromProps({ 'x-IdContext': 'menu.ok' }), {
      key: 'menu.ok',
      prev: null,
      next: null,
    });
    assert.equal(contextFromProps({ 'x-resource-name': 'a.tmx' }), undefined);
    assert.equal(contextFromProps(undefined), undefined);
  });

  it('writes the key on the unit and the neighbours in the source <tuv>, as memoQ does', () => {
    const written = contextProps({ key: 'menu.ok', prev: 'A <b>x</b> & B', next: null });
    assert.equal(written.unit, '<prop type="x-IdContext">menu.ok</prop>');
    assert.equal(
      written.source,
      '<prop type="x-context-pre">&lt;seg&gt;A &amp;lt;b&amp;gt;x&amp;lt;/b&amp;gt; &amp;amp; B&lt;/seg&gt;</prop>' +
        '<prop type="x-context-post">&lt;seg&gt;&lt;/seg&gt;</prop>',
    );
  });

  it('comes back from a written file as it went in', async () => {
    for (const context of [
      { key: null, prev: 'Before <g id="1">it</g>.', next: 'After & more.' },
      { key: 'dialog.ok', prev: null, next: null },
      { key: null, prev: null, next: null },
    ]) {
      assert.deepEqual((await roundTrip(context)).context, context);
    }
    assert.equal((await roundTrip(undefined)).context, undefined);
  });
});
