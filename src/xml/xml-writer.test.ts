import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanXml, xmlAttr, xmlText } from './xml-escape.ts';
import { endTag, startTag, textElement, XmlChunks } from './xml-writer.ts';

describe('xml-writer', () => {
  it('escapes text and attribute values', () => {
    assert.equal(xmlText('a < b & c > d "q" \'s\'\n\t'), 'a &lt; b &amp; c &gt; d "q" \'s\'\n\t');
    assert.equal(xmlAttr('a < b & "q"\n\t'), 'a &lt; b &amp; &quot;q&quot;&#10;&#9;');
  });

  it('writes CR as a reference so it survives line-end normalisation', () => {
    assert.equal(xmlText('a\r\nb\rc'), 'a&#13;\nb&#13;c');
    assert.equal(xmlAttr('a\r\nb'), 'a&#13;&#10;b');
  });

  it('replaces characters XML 1.0 cannot hold and keeps valid surrogate pairs', () => {
    assert.equal(xmlText('a\u0000b\u0008c\u001Fd\uFFFEe\uFFFF'), 'a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFD');
    assert.equal(xmlText('😀 \uD800x \uDC00'), '😀 \uFFFDx \uFFFD');
    assert.equal(cleanXml('<ph>\u0001</ph>'), '<ph>\uFFFD</ph>');
    assert.equal(cleanXml('plain'), 'plain');
  });

  it('builds tags, leaving out undefined attributes', () => {
    assert.equal(startTag('tu', { tuid: 7, x: undefined, note: 'a"b' }), '<tu tuid="7" note="a&quot;b">');
    assert.equal(startTag('header', { a: '1' }, true), '<header a="1"/>');
    assert.equal(endTag('tu'), '</tu>');
    assert.equal(textElement('prop', { type: 't' }, 'x & y'), '<prop type="t">x &amp; y</prop>');
  });

  it('collects output into chunks of the given size', () => {
    const out = new XmlChunks(10);
    out.write('12345');
    assert.equal(out.full, false);
    out.write('678901');
    assert.equal(out.full, true);
    assert.equal(out.take(), '12345678901');
    assert.equal(out.full, false);
    assert.equal(out.take(), '');
  });
});
