import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { icuSentenceStarts, SENTENCE_WINDOW } from './sentence-breaks.ts';

/** ICU's sentence starts read from the whole text in one iteration: what the windows must give back. */
function wholeText(segmenter: Intl.Segmenter, text: string): number[] {
  return [...segmenter.segment(text)].map((s) => s.index).filter((i) => i > 0);
}

// Sentences chosen for what makes ICU look ahead or hold back: a full stop before digits and a lower-case
// word (no break, UAX #29 SB8), closing quotes and brackets after a stop, abbreviations, runs of stops, text
// outside the BMP (a window must not end inside a surrogate pair), CJK stops without spaces.
const SENTENCES = [
  'The file was saved.',
  'Is it open?',
  'It is 3.5 MB, i.e. small.',
  'See p. 12 and 13 for more.',
  'He said "Stop." Then left.',
  'Wait... what?!',
  'The value x. 1 2 3 and then lower case follows.',
  '(This one is in brackets.)',
  'Math bold 𝐀𝐁𝐂. Emoji 😀 here!',
  '「こんにちは。」と言った。',
  '今日は晴れ！明日は？',
  'Mr. Smith arrived at 5 p.m. Monday.',
  'A. B. C. D.',
  'x? y? z?',
  'Ende.',
];

function paragraph(count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(SENTENCES[(i * 7) % SENTENCES.length]);
  return out.join(' ');
}

describe('icuSentenceStarts', () => {
  it('gives, window by window, the boundaries of one pass over the whole text', () => {
    const text = paragraph(400);
    assert.ok(text.length > 4 * SENTENCE_WINDOW);
    for (const lang of ['en', 'de', 'fr', 'ja', 'zh']) {
      const segmenter = new Intl.Segmenter(lang, { granularity: 'sentence' });
      const expected = wholeText(segmenter, text);
      assert.ok(expected.length > 300, `${lang}: ${expected.length} boundaries`);
      for (const window of [8, 13, 64, 500, SENTENCE_WINDOW]) {
        assert.deepEqual(icuSentenceStarts(segmenter, text, window), expected, `${lang}, window ${window}`);
      }
    }
  });

  it('grows a window past a stretch without a boundary and shrinks it again', () => {
    const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
    const run = 'words without any end '.repeat(400);
    const text = `One. Two. ${run}Three. Four. ${'x? '.repeat(300)}${run}Last one`;
    const expected = wholeText(segmenter, text);
    assert.ok(expected.length > 300);
    assert.deepEqual(icuSentenceStarts(segmenter, text, 64), expected);
    assert.deepEqual(icuSentenceStarts(segmenter, text), expected);
  });

  it('never cuts a window inside a surrogate pair', () => {
    const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
    // Every window of an odd size ends once between the halves of a pair; 𝐀 is an upper-case letter.
    const text = 'Go. 𝐀𝐀𝐀. '.repeat(200);
    const expected = wholeText(segmenter, text);
    for (const window of [7, 9, 11]) assert.deepEqual(icuSentenceStarts(segmenter, text, window), expected);
  });

  it('gives nothing for a text without a second sentence', () => {
    const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
    assert.deepEqual(icuSentenceStarts(segmenter, ''), []);
    assert.deepEqual(icuSentenceStarts(segmenter, 'no end at all '.repeat(1000), 16), []);
  });
});
