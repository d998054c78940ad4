import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTagged, type TagPart } from './inline-tags.ts';

const tags = (tagged: string) =>
  parseTagged(tagged).map((p) => (p.type === 'text' ? p.text : `${(p as TagPart).form}:${p.raw}`));

describe('parseTagged', () => {
  it('reads a code element to its first matching close tag, content kept as written', () => {
    assert.deepEqual(tags('a<bpt i="1">&lt;b&gt;<sub>x</sub></bpt>b<ept i="1">&lt;/b&gt;</ept>'), [
      'a',
      'code:<bpt i="1">&lt;b&gt;<sub>x</sub></bpt>',
      'b',
      'code:<ept i="1">&lt;/b&gt;</ept>',
    ]);
    const [code] = parseTagged('<ph x="1">a</ph>b</ph>');
    assert.equal((code as TagPart).content, 'a');
    assert.deepEqual(tags('<ph/><it pos="open" />'), ['code:<ph/>', 'code:<it pos="open" />']);
  });

  it('reads a code element that never closes as an open tag of its name, wherever the text ends', () => {
    // Its content was a lazy match to the end of the text, retried for each such element (quadratic):
    // now one forward search per element name; the reading is unchanged.
    const many = '<bpt>'.repeat(50_000);
    const parts = parseTagged(many);
    assert.equal(parts.length, 50_000);
    assert.ok(parts.every((p) => p.type === 'tag' && p.form === 'open' && p.name === 'bpt'));
    // A close after them: the last code element's content runs to it, the earlier ones' too (first close
    // after each), so the first one takes everything.
    assert.deepEqual(tags('<bpt>a<bpt>b</bpt>'), ['code:<bpt>a<bpt>b</bpt>']);
    assert.deepEqual(tags('<ph>a<bpt>b</bpt>c'), ['open:<ph>', 'a', 'code:<bpt>b</bpt>', 'c']);
    assert.deepEqual(tags('<bpt>a</ept><ept>b</ept>'), [
      'open:<bpt>',
      'a',
      'close:</ept>',
      'code:<ept>b</ept>',
    ]);
  });

  it('leaves what is not the grammar as text', () => {
    assert.deepEqual(tags('a < b <g id="1" x> <b>c</b> </g >'), [
      'a < b <g id="1" x> <b>c</b> ',
      'close:</g >',
    ]);
  });
});
