import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NUM, tokenize } from './tokenize.ts';

/** Tokens as "type:norm|real" strings (norm omitted when equal to real). */
const show = (text: string) =>
  tokenize(text).map((t) => (t.norm === t.real ? `${t.type}:${t.real}` : `${t.type}:${t.norm}|${t.real}`));

describe('tokenize', () => {
  it('splits words on whitespace and punctuation, lower-casing the norm', () => {
    assert.deepEqual(show('Save the File.'), ['word:save|Save', 'word:the', 'word:file|File', 'punct:.']);
  });

  it('keeps an inner apostrophe, hyphen or dot between alphanumerics, and only there', () => {
    assert.deepEqual(show("don't e-mail file.txt ’tis -x- a--b end."), [
      "word:don't",
      'word:e-mail',
      'word:file.txt',
      'punct:’',
      'word:tis',
      'punct:-',
      'word:x',
      'punct:-',
      'word:a',
      'punct:-',
      'punct:-',
      'word:b',
      'word:end',
      'punct:.',
    ]);
  });

  it('makes numbers of digit words, with NFKC digits as the real form', () => {
    assert.deepEqual(show('3.14 １２ 2024-01-05 1,000 2nd'), [
      `number:${NUM}|3.14`,
      `number:${NUM}|12`,
      `number:${NUM}|2024-01-05`,
      `number:${NUM}|1`,
      'punct:,',
      `number:${NUM}|000`,
      'word:2nd',
    ]);
  });

  it('makes one punctuation token per character, marks included', () => {
    assert.deepEqual(show('...!? ❤️ €'), [
      'punct:.',
      'punct:.',
      'punct:.',
      'punct:!',
      'punct:?',
      'punct:❤️',
      'punct:€',
    ]);
  });

  it('keeps a whole inline code element as one tag token, by kind and name', () => {
    const tokens = tokenize(
      'Click <bpt i="1">&lt;b&gt;</bpt>OK<ept i="1">&lt;/b&gt;</ept> <x id="3"/> <g id="1">a</g>',
    );
    assert.deepEqual(
      tokens.filter((t) => t.type === 'tag').map((t) => [t.norm, t.real]),
      [
        ['x:code:bpt', '<bpt i="1">&lt;b&gt;</bpt>'],
        ['x:code:ept', '<ept i="1">&lt;/b&gt;</ept>'],
        ['x:empty:x', '<x id="3"/>'],
        ['x:open:g', '<g id="1">'],
        ['x:close:g', '</g>'],
      ],
    );
    assert.deepEqual(
      tokens.filter((t) => t.type !== 'tag').map((t) => t.real),
      ['Click', 'OK', 'a'],
    );
  });

  it('reads HTML-like tags in text, attributes ignored in the norm', () => {
    assert.deepEqual(
      tokenize('<b>bold</b> <A href="x">l</A><br/><br> <span class="a b">')
        .filter((t) => t.type === 'tag')
        .map((t) => t.norm),
      ['h:open:b', 'h:close:b', 'h:open:a', 'h:close:a', 'h:empty:br', 'h:empty:br', 'h:open:span'],
    );
  });

  it('reads {{ name }} trimmed and ICU heads that never close as heads, after long runs too', () => {
    // Both were expressions or scans retried from every start (a run of spaces no "}}" ends; each "{a," read
    // to the end of the text): now one pass; the tokens are the same.
    assert.deepEqual(show('{{  count\t}} {{}}'), ['placeholder:{{count}}|{{  count\t}}', 'placeholder:{{}}']);
    const spaces = ' '.repeat(50_000);
    assert.deepEqual(show(`{{a${spaces}x`), ['punct:{', 'punct:{', 'word:a', 'word:x']);
    const heads = '{a,'.repeat(20_000);
    const tokens = tokenize(heads);
    assert.equal(tokens.length, 60_000);
    assert.deepEqual(show('{a, {b, } x'), [
      'punct:{',
      'word:a',
      'punct:,',
      'placeholder:{b}|{b, }',
      'word:x',
    ]);
    assert.deepEqual(show('{n, plural, one {{a, } x'), [
      'placeholder:{n,plural}|{n, plural,',
      'word:one',
      'punct:{',
      'placeholder:{a}|{a, }',
      'word:x',
    ]);
  });

  it('reads placeholders as placeholder tokens whose norm is their key', () => {
    const text =
      // biome-ignore lint/suspicious/noTemplateCurlyInString: ${x} and ${NAME} placeholders are the input here
      '%s %d %1$s %(name)s %.*s %ld %@ {0} {name} {n, number} ${x} $NAME {{ user }} %{count} %<n>d &amp; &#160; {n, plural, one {# file} other {# {n} files}}';
    assert.deepEqual(
      tokenize(text).map((t) => `${t.type}:${t.norm}|${t.real}`),
      [
        'placeholder:%s|%s',
        'placeholder:%d|%d',
        'placeholder:%1$s|%1$s',
        'placeholder:%(name)s|%(name)s',
        'placeholder:%.*s|%.*s',
        'placeholder:%ld|%ld',
        'placeholder:%@|%@',
        'placeholder:{0}|{0}',
        'placeholder:{name}|{name}',
        'placeholder:{n,number}|{n, number}',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${x} placeholder, not a template
        'placeholder:$x|${x}',
        'placeholder:$NAME|$NAME',
        'placeholder:{{user}}|{{ user }}',
        'placeholder:%{count}|%{count}',
        'placeholder:%<n>d|%<n>d',
        'placeholder:&amp;|&amp;',
        'placeholder:&#160;|&#160;',
        'placeholder:{n,plural}|{n, plural, one {# file} other {# {n} files}}',
      ],
    );
  });

  it('reads a code element whose native code is one placeholder as that placeholder; other code is a tag', () => {
    assert.deepEqual(
      show('<ph id="1">{{count}}</ph> <ph id="2">&lt;b&gt;</ph> <x id="3"/> <ph id="4">%1$s of %2$s</ph>'),
      [
        'placeholder:{{count}}|<ph id="1">{{count}}</ph>',
        'tag:x:code:ph|<ph id="2">&lt;b&gt;</ph>',
        'tag:x:empty:x|<x id="3"/>',
        'tag:x:code:ph|<ph id="4">%1$s of %2$s</ph>',
      ],
    );
  });

  it('reads the head of an ICU plural whose braces do not close here (a segment cut it) as the placeholder', () => {
    assert.deepEqual(show('{n, plural, one {One file.'), [
      'placeholder:{n,plural}|{n, plural,',
      'word:one',
      'punct:{',
      'word:one|One',
      'word:file',
      'punct:.',
    ]);
  });

  it('leaves lookalikes of placeholders and tags as text', () => {
    assert.deepEqual(show('100 % a < b {a b} {unclosed, x %%s $5 $t(k) & x &amp'), [
      `number:${NUM}|100`,
      'punct:%',
      'word:a',
      'punct:<',
      'word:b',
      'punct:{',
      'word:a',
      'word:b',
      'punct:}',
      'punct:{',
      'word:unclosed',
      'punct:,',
      'word:x',
      'punct:%',
      'punct:%',
      'word:s',
      'punct:$',
      `number:${NUM}|5`,
      'punct:$',
      'word:t',
      'punct:(',
      'word:k',
      'punct:)',
      'punct:&',
      'word:x',
      'punct:&',
      'word:amp',
    ]);
  });

  it('makes one token per grapheme in scripts written without spaces', () => {
    assert.deepEqual(show('无法保存文件，请重试。'), [
      ...'无法保存文件'.split('').map((c) => `word:${c}`),
      'punct:，',
      ...'请重试'.split('').map((c) => `word:${c}`),
      'punct:。',
    ]);
    // The prolonged sound mark is kana by script extension; Latin and digits break out of the run.
    assert.deepEqual(show('データをlibpamで第3章'), [
      'word:デ',
      'word:ー',
      'word:タ',
      'word:を',
      'word:libpam',
      'word:で',
      'word:第',
      `number:${NUM}|3`,
      'word:章',
    ]);
    // Thai: combining vowels and tone marks stay with their consonant; SARA AM extends the cluster.
    assert.deepEqual(show('กินน้ำ'), ['word:กิ', 'word:น', 'word:น้ำ']);
  });

  it('keeps Hangul words whole', () => {
    assert.deepEqual(show('한국어 입력기'), ['word:한국어', 'word:입력기']);
  });

  it('normalizes to NFC first and reports offsets into the NFC string', () => {
    const tokens = tokenize('Cafe\u0301  bar');
    assert.deepEqual(
      tokens.map((t) => [t.real, t.start, t.end]),
      [
        ['Café', 0, 4],
        ['bar', 6, 9],
      ],
    );
  });

  it('lower-cases with the root locale', () => {
    assert.equal(tokenize('İSTANBUL')[0].norm, 'i̇stanbul');
  });

  it('returns nothing for empty or blank text', () => {
    assert.deepEqual(tokenize(''), []);
    assert.deepEqual(tokenize(' \n\t\u200b'), []);
  });
});
