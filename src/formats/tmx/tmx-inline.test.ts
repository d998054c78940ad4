import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { taggedToTmx } from './tmx-inline.ts';

describe('taggedToTmx', () => {
  it('writes text escaped, CR as a reference', () => {
    assert.equal(taggedToTmx('a < b & c > d "q"\r\n'), 'a &lt; b &amp; c &gt; d "q"&#13;\n');
  });

  it('writes valid TMX inline elements as themselves', () => {
    const tagged =
      '<bpt i="1" type="bold">&lt;b&gt;</bpt>x<ept i="1">&lt;/b&gt;</ept><ph/><it pos="end">&lt;/i&gt;</it>' +
      '<ut x="1">{\\b}</ut><hi type="t">y<ph x="2">&amp;</ph></hi><hi/><ph>&lt;a t="<sub type="s">z</sub>"&gt;</ph>';
    assert.equal(taggedToTmx(tagged), tagged);
  });

  const mappings: Array<[string, string, string]> = [
    [
      'an XLIFF <g> pair → bpt/ept',
      'Click <g id="1">Save</g>',
      'Click <bpt i="1" type="x-tag-g">&lt;g id="1"&gt;</bpt>Save<ept i="1">&lt;/g&gt;</ept>',
    ],
    ['<x/> → ph', 'a<x id="2"/>', 'a<ph type="x-tag-x">&lt;x id="2"/&gt;</ph>'],
    [
      '<bx/> and <ex/> → it begin and end',
      '<bx id="3" rid="1"/>a<ex id="4" rid="1"/>',
      '<it pos="begin" type="x-tag-bx">&lt;bx id="3" rid="1"/&gt;</it>a<it pos="end" type="x-tag-ex">&lt;ex id="4" rid="1"/&gt;</it>',
    ],
    [
      'a <mrk> pair → bpt/ept',
      '<mrk mtype="term">word</mrk>',
      '<bpt i="1" type="x-tag-mrk">&lt;mrk mtype="term"&gt;</bpt>word<ept i="1">&lt;/mrk&gt;</ept>',
    ],
    [
      'an unpaired open → it begin',
      '<g id="1">open',
      '<it pos="begin" type="x-tag-g">&lt;g id="1"&gt;</it>open',
    ],
    ['an unpaired close → it end', 'close</g>', 'close<it pos="end" type="x-tag-g">&lt;/g&gt;</it>'],
    ['an unpaired <hi> → it', '<hi type="b">x', '<it pos="begin" type="x-tag-hi">&lt;hi type="b"&gt;</it>x'],
    [
      '<sub> outside a code element → bpt/ept',
      '<sub>s</sub>',
      '<bpt i="1" type="x-tag-sub">&lt;sub&gt;</bpt>s<ept i="1">&lt;/sub&gt;</ept>',
    ],
    [
      'a code element with XLIFF attributes → ph holding it whole',
      '<ph id="1" ctype="image">&lt;img/&gt;</ph>',
      '<ph type="x-tag-ph">&lt;ph id="1" ctype="image"&gt;&amp;lt;img/&amp;gt;&lt;/ph&gt;</ph>',
    ],
    [
      'a bpt without its required i → ph',
      '<bpt>&lt;b&gt;</bpt>',
      '<ph type="x-tag-bpt">&lt;bpt&gt;&amp;lt;b&amp;gt;&lt;/bpt&gt;</ph>',
    ],
    [
      'an it with a bad pos → ph',
      '<it pos="middle">c</it>',
      '<ph type="x-tag-it">&lt;it pos="middle"&gt;c&lt;/it&gt;</ph>',
    ],
    [
      'content that is not canonical XML → ph',
      "<ph>a &quot;b&quot; <sub x='1'>c</sub></ph>",
      '<ph type="x-tag-ph">&lt;ph&gt;a &amp;quot;b&amp;quot; &lt;sub x=\'1\'&gt;c&lt;/sub&gt;&lt;/ph&gt;</ph>',
    ],
    [
      'a code element whose type looks mapped → ph',
      '<ph type="x-tag-x">&lt;x/&gt;</ph>',
      '<ph type="x-tag-ph">&lt;ph type="x-tag-x"&gt;&amp;lt;x/&amp;gt;&lt;/ph&gt;</ph>',
    ],
    [
      'mapped pairs numbered above the segment’s own',
      '<bpt i="7">[</bpt><g id="1">x</g><ept i="7">]</ept>',
      '<bpt i="7">[</bpt><bpt i="8" type="x-tag-g">&lt;g id="1"&gt;</bpt>x<ept i="8">&lt;/g&gt;</ept><ept i="7">]</ept>',
    ],
  ];
  for (const [name, tagged, expected] of mappings) {
    it(name, () => assert.equal(taggedToTmx(tagged), expected));
  }
});
