import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { segmentSentences } from './segment.ts';
import { SENTENCE_WINDOW } from './sentence-breaks.ts';

/** The sentences as strings, after checking that spans and gaps rebuild the paragraph exactly. */
function sentences(tagged: string, lang: string): string[] {
  const spans = segmentSentences(tagged, lang);
  let rebuilt = '';
  let at = 0;
  for (const { start, end } of spans) {
    assert.ok(start < end && start >= at, `span ${start}-${end} after ${at}`);
    assert.match(tagged.slice(at, start), /^\s*$/, 'only whitespace between sentences');
    assert.match(tagged.slice(start, end), /^\S[\s\S]*\S$|^\S$/, 'no whitespace at span edges');
    rebuilt += tagged.slice(at, end);
    at = end;
  }
  assert.match(tagged.slice(at), /^\s*$/);
  assert.equal(rebuilt + tagged.slice(at), tagged);
  return spans.map(({ start, end }) => tagged.slice(start, end));
}

describe('segmentSentences', () => {
  it('returns nothing for empty or blank input', () => {
    assert.deepEqual(segmentSentences('', 'en'), []);
    assert.deepEqual(segmentSentences(' \n\t ', 'en'), []);
  });

  it('keeps a single sentence whole, without its surrounding whitespace', () => {
    assert.deepEqual(segmentSentences('  Just one sentence.\n', 'en'), [{ start: 2, end: 20 }]);
    assert.deepEqual(sentences('No final stop', 'en'), ['No final stop']);
  });

  it('splits English sentences but not after abbreviations', () => {
    assert.deepEqual(
      sentences(
        'Hello Mr. Smith. See e.g. Paris or Rome. Dr. Who arrived, i.e. Prof. Plum left. It costs 3.5 dollars!',
        'en',
      ),
      [
        'Hello Mr. Smith.',
        'See e.g. Paris or Rome.',
        'Dr. Who arrived, i.e. Prof. Plum left.',
        'It costs 3.5 dollars!',
      ],
    );
    assert.deepEqual(
      sentences('Apples, pears etc. Are fruit. Acme Inc. Makes things. See Fig. 3 below.', 'en'),
      ['Apples, pears etc. Are fruit.', 'Acme Inc. Makes things.', 'See Fig. 3 below.'],
    );
  });

  it('treats "No." as an abbreviation only before a number', () => {
    assert.deepEqual(sentences('No. I will not. See No. 5 here.', 'en'), [
      'No.',
      'I will not.',
      'See No. 5 here.',
    ]);
  });

  it('keeps German abbreviations with inner spaces and ordinals together', () => {
    assert.deepEqual(
      sentences(
        'Das ist z. B. gut. Am 3. Oktober kam er. Dr. Müller ist hier, d. h. heute. Er kam um 3. Dann ging er.',
        'de',
      ),
      [
        'Das ist z. B. gut.',
        'Am 3. Oktober kam er.',
        'Dr. Müller ist hier, d. h. heute.',
        'Er kam um 3.',
        'Dann ging er.',
      ],
    );
    assert.deepEqual(
      sentences(
        'Siehe Nr. 4 bzw. Nr. 5 u. a. Sachen, ca. 20 Stück. Der 2. Platz und der 3. Platz. Ende.',
        'de-DE',
      ),
      ['Siehe Nr. 4 bzw. Nr. 5 u. a. Sachen, ca. 20 Stück.', 'Der 2. Platz und der 3. Platz.', 'Ende.'],
    );
    assert.deepEqual(sentences('Zum Beispiel z.B. Äpfel. Neue Str. Nummer zwei.', 'de'), [
      'Zum Beispiel z.B. Äpfel.',
      'Neue Str. Nummer zwei.',
    ]);
  });

  it('applies German rules only to German', () => {
    assert.deepEqual(sentences('He came on the 3. October was late.', 'en'), [
      'He came on the 3.',
      'October was late.',
    ]);
  });

  it('handles French abbreviations and guillemets', () => {
    assert.deepEqual(
      sentences('M. Dupont est là. « Bonjour. » Il part, p. ex. demain. Mme. Roy aussi.', 'fr'),
      ['M. Dupont est là.', '« Bonjour. »', 'Il part, p. ex. demain.', 'Mme. Roy aussi.'],
    );
  });

  it('breaks Japanese after 。！？ without spaces and moves opening brackets forward', () => {
    assert.deepEqual(sentences('「こんにちは。」と言った。今日は晴れ！明日は？（注）です。', 'ja'), [
      '「こんにちは。」と言った。',
      '今日は晴れ！',
      '明日は？',
      '（注）です。',
    ]);
    assert.deepEqual(sentences('『本』を読んだ。【重要】確認してください。', 'ja-JP'), [
      '『本』を読んだ。',
      '【重要】確認してください。',
    ]);
  });

  it('breaks Chinese after full stops, closing quotes staying with their sentence', () => {
    assert.deepEqual(sentences('“你好。”他说。“再见！”她回答。这是（注释）。好吗？是的', 'zh-Hans'), [
      '“你好。”',
      '他说。',
      '“再见！”',
      '她回答。',
      '这是（注释）。',
      '好吗？',
      '是的',
    ]);
  });

  it('never splits inside a tag and attaches boundary tags sensibly', () => {
    const text =
      'Read <bpt i="1">&lt;b&gt;</bpt>this. Now.<ept i="1">&lt;/b&gt;</ept> <ph id="2">{{x}}</ph> Tail. ' +
      'Open.<bpt i="3">&lt;i&gt;</bpt> Next.<ept i="3">&lt;/i&gt;</ept>';
    assert.deepEqual(sentences(text, 'en'), [
      'Read <bpt i="1">&lt;b&gt;</bpt>this.',
      'Now.<ept i="1">&lt;/b&gt;</ept>',
      '<ph id="2">{{x}}</ph> Tail.',
      'Open.',
      '<bpt i="3">&lt;i&gt;</bpt> Next.<ept i="3">&lt;/i&gt;</ept>',
    ]);
  });

  it('does not treat a period inside a tag as a sentence end', () => {
    assert.deepEqual(sentences('Open <ph id="1">file. Now</ph> please. Thanks.', 'en'), [
      'Open <ph id="1">file. Now</ph> please.',
      'Thanks.',
    ]);
  });

  it('keeps paired elements inside one sentence', () => {
    assert.deepEqual(sentences('<g id="1">Hello. World.</g> Next one. <x id="2"/>', 'en'), [
      '<g id="1">Hello. World.</g>',
      'Next one. <x id="2"/>',
    ]);
  });

  it('keeps leading and trailing tags and whitespace', () => {
    const text = '\n  <x id="1"/> First. Second. <x id="2"/>  \n';
    assert.deepEqual(sentences(text, 'en'), ['<x id="1"/> First.', 'Second. <x id="2"/>']);
    assert.deepEqual(sentences('<x id="1"/>', 'en'), ['<x id="1"/>']);
  });

  it('treats line breaks inside a paragraph as spaces', () => {
    assert.deepEqual(sentences('A line that wraps\nonto the next. Then\r\nanother.', 'en'), [
      'A line that wraps\nonto the next.',
      'Then\r\nanother.',
    ]);
  });

  it('splits a long paragraph as it splits its sentences one by one', () => {
    // Over the segmenter's window (sentence-breaks.ts), with rules at work in every language, tags and pairs.
    const pieces: Record<string, string[]> = {
      en: [
        'Hello Mr. Smith.',
        'See No. 5 on p. 12 today.',
        'Is it <g id="1">bold? Yes.</g>',
        'Go <x id="2"/>now!',
      ],
      de: [
        'Das ist z. B. gut.',
        'Am 3. Oktober kam er.',
        'Der 2. Platz <ph id="1">{0}</ph> war frei.',
        'Ende.',
      ],
      fr: ['M. Dupont est là.', '« Bonjour. »', 'Il part, p. ex. demain.', 'Voilà !'],
      ja: ['「こんにちは。」と言った。', '今日は晴れ！', '明日は？', '（注）です。'],
      zh: ['“你好。”', '他说。', '好吗？', '这是（注释）。'],
    };
    for (const [lang, list] of Object.entries(pieces)) {
      const one = list.map((sentence) => sentences(sentence, lang));
      assert.deepEqual(
        one,
        list.map((sentence) => [sentence]),
        lang,
      );
      const many = Array.from({ length: 2000 }, (_, i) => list[(i * 3) % list.length]);
      const gap = lang === 'ja' || lang === 'zh' ? '' : ' ';
      const text = many.join(gap);
      assert.ok(text.length > 4 * SENTENCE_WINDOW, `${lang}: ${text.length}`);
      assert.deepEqual(sentences(text, lang), many, lang);
    }
  });

  it('splits a paragraph holding thousands of sentences and paired tags in one piece each', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `<g id="${i}">Item ${i} is here.</g>`);
    assert.deepEqual(sentences(many.join(' '), 'en'), many);
    // A pair around the whole paragraph keeps it whole.
    const wrapped = `<g id="0">${many.slice(0, 1000).join(' ')}</g>`;
    assert.deepEqual(sentences(wrapped, 'en'), [wrapped]);
  });

  it('cuts after a run of CJK stops and its closing brackets only where no stop follows', () => {
    assert.deepEqual(sentences('はい。。。」。次です。「え？」」と言った！！終わり', 'ja'), [
      'はい。。。」。',
      '次です。',
      '「え？」」と言った！！',
      '終わり',
    ]);
    assert.deepEqual(sentences('好。。”。他说！！”好吗？？', 'zh'), ['好。。”。', '他说！！”', '好吗？？']);
  });

  it('accepts unknown and malformed language tags', () => {
    assert.deepEqual(sentences('One. Two.', 'xx'), ['One.', 'Two.']);
    assert.deepEqual(sentences('One. Two.', 'not a tag!'), ['One.', 'Two.']);
  });
});
