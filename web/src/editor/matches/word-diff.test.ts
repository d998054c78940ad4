// The word diff and the score chips, on docs/MATCHING.md's worked examples: they must say what the scorer counted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scoreMatch } from '@server/matching/score.ts';
import { explainScore } from './score-explanation.ts';
import { type DiffPart, placeholderText, wordDiff } from './word-diff.ts';

const show = (parts: DiffPart[]) =>
  parts
    .map((p) => {
      const text =
        p.kind === 'equal'
          ? p.text
          : p.kind === 'changed'
            ? `~${p.text}>${p.now}`
            : `${p.kind === 'added' ? '+' : '-'}${p.text}`;
      return p.gap + text + (p.trail ?? '');
    })
    .join('');

test('a different word is removed from the match and added from this source', () => {
  assert.equal(
    show(wordDiff('The file could not be opened.', 'The file could not be saved.')),
    'The file could not be -opened +saved.',
  );
});

test('case and digits show as changed words, as the scorer aligns them', () => {
  assert.equal(show(wordDiff('Delete 3 files', 'Delete 12 files')), 'Delete ~3>12 files');
  assert.equal(show(wordDiff('save the file.', 'Save the file.')), '~save>Save the file.');
});

test('punctuation and tags are diffed too, between the words', () => {
  assert.equal(show(wordDiff('Save the file', 'Save the file.')), 'Save the file+.');
  assert.equal(
    show(wordDiff('Click OK to continue.', 'Click <g id="1">OK</g> to continue.')),
    'Click +<g id="1"> OK+</g> to continue.',
  );
});

test('a tag in the same place, written another way, is changed, not removed and added', () => {
  const parts = wordDiff(
    'Shows <bpt i="1">&lt;b&gt;</bpt>TM<ept i="1">&lt;/b&gt;</ept> results.',
    'Shows <g id="1">TM</g> matches.',
  );
  assert.deepEqual(
    parts.map((p) => p.kind),
    ['equal', 'changed', 'equal', 'changed', 'removed', 'added', 'equal'],
  );
  assert.equal(parts[1].now, '<g id="1">');
});

test('words moved or missing at either end', () => {
  assert.equal(show(wordDiff('Open the file now', 'the file')), '-Open the file -now');
  assert.equal(show(wordDiff('', 'New text')), '+New +text');
});

test('the chips add up to 100 − score, with the words chip from the base score', () => {
  const cases: [string, string][] = [
    ['The file could not be saved.', 'The file could not be opened.'],
    ['Delete 3 files', 'Delete 12 files'],
    ['Click <b>OK</b> to continue.', 'Click OK to continue.'],
    ['Save the file.', 'save the file'],
    ['Save  the file.', 'Save the file.'],
    [
      'The editor shows <g id="1">TM</g> matches.',
      'The editor shows <bpt i="1">&lt;abbr&gt;</bpt>TM<ept i="1">&lt;/abbr&gt;</ept> results.',
    ],
  ];
  for (const [source, matchSource] of cases) {
    const { score, penalties } = scoreMatch(source, matchSource);
    const chips = explainScore(source, { source: matchSource, score, metadata: { penalties } as never });
    const total = chips.reduce((sum, c) => sum + c.points, 0);
    assert.equal(total, 100 - score, `${source} | ${matchSource}: ${JSON.stringify(chips)}`);
    assert.ok(
      chips.every((c) => c.kind !== 'other'),
      JSON.stringify(chips),
    );
  }
  const opened = explainScore('The file could not be saved.', {
    source: 'The file could not be opened.',
    score: 83,
    metadata: { penalties: [] } as never,
  });
  assert.deepEqual(opened, [{ kind: 'words', points: 17, title: '1 of 6 words differs' }]);
  assert.deepEqual(
    explainScore('Same.', { source: 'Same.', score: 100, metadata: { penalties: [] } as never }),
    [],
  );
});

test('printf codes are called placeholders, not tags', () => {
  const source = 'Copy %s to %s?';
  const matchSource = 'Copy %1$s to %2$s?';
  const { score, penalties } = scoreMatch(source, matchSource);
  const chips = explainScore(source, { source: matchSource, score, metadata: { penalties } as never });
  assert.ok(
    chips.every((c) => c.kind !== 'tags'),
    JSON.stringify(chips),
  );
  assert.equal(
    chips.reduce((sum, c) => sum + c.points, 0),
    100 - score,
  );
});

test('placeholders, line breaks and indentation read in the diff as they are written', () => {
  // Placeholders align with each other (docs/MATCHING.md §2): each of the match's is shown replaced by this one's.
  const parts = wordDiff('Copy %1$s to\n  %2$s?', 'Copy %s to\n  %s?');
  assert.equal(show(parts), 'Copy ~%1$s>%s to\n  ~%2$s>%s?');
  assert.equal(show(wordDiff('Done. ', 'Done.')), 'Done. ');
});

test('a placeholder protected as a code element reads as its native code, and is the same one however written', () => {
  // Drawn as the target editor draws it: `{{count}}`, never `<ph id="1">{{count}}</ph>`.
  assert.equal(placeholderText('<ph id="1">{{count}}</ph>'), '{{count}}');
  assert.equal(placeholderText('<ph id="3" ctype="x-var">%{count}</ph>'), '%{count}');
  assert.equal(placeholderText('%1$s'), '%1$s');
  assert.equal(
    placeholderText('<ph id="1">{count, plural, one {</ph>'),
    undefined,
    'a tag, drawn as its chip',
  );
  assert.equal(placeholderText('<x id="1"/>'), undefined);
  assert.equal(placeholderText('files'), undefined);
  const shown = (parts: DiffPart[]) =>
    show(
      parts.map((p) => ({
        ...p,
        text: placeholderText(p.text) ?? p.text,
        now: p.now && (placeholderText(p.now) ?? p.now),
      })),
    );
  // Another placeholder in its place: the match's struck, this one's inserted, both as their text.
  assert.equal(
    shown(
      wordDiff('You have <ph id="2">{{total}}</ph> new files', 'You have <ph id="1">{{count}}</ph> files'),
    ),
    'You have ~{{total}}>{{count}} -new files',
  );
  // The same placeholder typed in the match and protected here (or numbered otherwise): no change, as the
  // scorer has it (it compares placeholders by key). Was `~{{count}}>{{count}}`.
  assert.deepEqual(
    wordDiff('You have {{count}} files', 'You have <ph id="1">{{count}}</ph> files').map((p) => p.kind),
    ['equal', 'equal', 'equal', 'equal'],
  );
  assert.equal(
    shown(wordDiff('Hello <ph id="2">{name}</ph>!', 'Hello <ph id="1">{name}</ph>!')),
    'Hello {name}!',
  );
});
