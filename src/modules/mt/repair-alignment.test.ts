import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stemmerOf } from '../../terminology/stemmers.ts';
import { narrowed, repairMatch, type Translate } from './repair.ts';
import { alignPair, type LearnedTranslation, projectSpan, wordsToLearn } from './repair-alignment.ts';

/** A learned lexicon of a few words, each with one translation and its share. */
function lexicon(entries: Record<string, string | [string, number][]>): Map<string, LearnedTranslation[]> {
  return new Map(
    Object.entries(entries).map(([word, t]) => [
      word,
      typeof t === 'string' ? [{ target: t, share: 0.9 }] : t.map(([target, share]) => ({ target, share })),
    ]),
  );
}

/** The target words each source word is linked to, as text ('-' when unlinked). */
function linked(source: string, target: string, learned: Map<string, LearnedTranslation[]>) {
  const a = alignPair(source, target, learned, stemmerOf('es'));
  return a.source.norms.map((w, i) => {
    const link = a.links[i];
    return `${w}→${link ? a.target.norms.slice(link[0], link[1] + 1).join(' ') : '-'}`;
  });
}

/** The target text a source phrase projects onto. */
function projected(
  source: string,
  target: string,
  phrase: string,
  learned: Map<string, LearnedTranslation[]>,
) {
  const at = source.indexOf(phrase);
  assert.ok(at >= 0);
  const span = projectSpan(alignPair(source, target, learned, stemmerOf('es')), at, at + phrase.length);
  return span && target.slice(span.start, span.end);
}

describe('alignPair', () => {
  it('links each source word to a learned translation found in the target, by its stem, once', () => {
    const learned = lexicon({ the: 'el', dog: 'can', eats: 'comer', food: 'comida' });
    assert.deepEqual(linked('The dog eats its food', 'El can come su comida', learned), [
      'the→el',
      'dog→can',
      'eats→come',
      'its→-',
      'food→comida',
    ]);
  });

  it('takes the better share first, and of two equal places the one nearer the diagonal', () => {
    const learned = lexicon({
      red: 'roja',
      box: [
        ['caja', 0.8],
        ['roja', 0.95],
      ],
      ball: 'pelota',
    });
    // "box" takes one "roja" (its share is higher, though wrong); each "red" takes what is left to it.
    assert.deepEqual(linked('red box', 'caja roja', learned), ['red→-', 'box→roja']);
    // Of two "roja", each "red" takes the one nearer the diagonal: the second's is the ball's.
    const colours = lexicon({ red: 'roja', box: 'caja', ball: 'pelota' });
    const source = 'the red box and the red ball';
    const target = 'la caja roja y la pelota roja';
    assert.equal(projected(source, target, 'red ball', colours), 'pelota roja');
    assert.equal(projected(source, target, 'red box', colours), 'caja roja');
  });

  it('links a word written alike on both sides only when it is a number or has four letters or more', () => {
    assert.deepEqual(linked('a mask 32', 'a máscara 32 mask', new Map()), ['a→-', 'mask→mask', '32→32']);
  });

  it('links a phrase a word translates into as a whole, and ignores translations of a small share', () => {
    const learned = lexicon({
      save: [
        ['guardar como', 0.6],
        ['como', 0.05],
      ],
      file: 'archivo',
    });
    assert.deepEqual(linked('save file', 'guardar como archivo', learned), [
      'save→guardar como',
      'file→archivo',
    ]);
    assert.deepEqual(linked('save', 'como', learned), ['save→-']);
  });

  it('asks the lexicon about each distinct word once', () => {
    assert.deepEqual(wordsToLearn('The dog and the cat'), ['the', 'dog', 'and', 'cat']);
  });
});

describe('projectSpan', () => {
  const learned = lexicon({ the: 'la', red: 'roja', house: 'casa', is: 'es', big: 'grande' });

  it('projects a phrase onto the span its words are linked to, whatever their order there', () => {
    assert.equal(
      projected('The red house is big', 'La casa roja es grande', 'red house', learned),
      'casa roja',
    );
    assert.equal(
      projected('The red house is big', 'La casa roja es grande', 'The red house', learned),
      'La casa roja',
    );
  });

  it('gives nothing when a word inside the span belongs to a source word outside the phrase', () => {
    // "casa" lies between "La" and "roja" but is "house"'s: "The red" is no phrase of the target.
    assert.equal(projected('The red house is big', 'La casa roja es grande', 'The red', learned), null);
  });

  it('gives nothing when the phrase’s first or last word is unlinked: nothing anchors it', () => {
    assert.equal(
      projected('The red house is very big', 'La casa roja es muy grande', 'very big', learned),
      null,
    );
    assert.equal(
      projected('The red house is very big', 'La casa roja es muy grande', 'is very', learned),
      null,
    );
    assert.equal(
      projected('The red house is very big', 'La casa roja es muy grande', 'is very big', learned),
      'es muy grande',
    );
  });

  it('gives nothing for a span far longer than the phrase (a link gone astray)', () => {
    const far = lexicon({ open: 'abra', file: 'archivo' });
    assert.equal(
      projected('open file', 'abra uno dos tres cuatro cinco seis el archivo', 'open file', far),
      null,
    );
    assert.equal(projected('open file', 'abra el archivo', 'open file', far), 'abra el archivo');
  });
});

describe('repairMatch with the memory’s word alignments', () => {
  /** An MT engine that knows a few phrases (and nothing else). */
  const dictionary =
    (entries: Record<string, string>): Translate =>
    async (texts) =>
      texts.map((t) => entries[t] ?? null);
  const input = {
    source: 'The cat eats its food',
    matchSource: 'The dog eats its food',
    matchTarget: 'El can come su comida',
  };
  // The engine says "perro" where the translator wrote "can": MT alone cannot locate the difference.
  const mt = dictionary({
    'The dog eats': 'El perro come',
    'The cat eats': 'El gato come',
    'The dog': 'El perro',
    'The cat': 'El gato',
    'dog eats': 'perro come',
    'cat eats': 'gato come',
    dog: 'perro',
    cat: 'gato',
  });
  const learned = lexicon({ the: 'el', dog: 'can', eats: 'comer', its: 'su', food: 'comida' });
  const alignment = alignPair(input.matchSource, input.matchTarget, learned, stemmerOf('es'));

  it('patches the span the anchored phrase projects onto, where MT alone finds nothing', async () => {
    assert.equal(await repairMatch(input, mt), null);
    const repair = await repairMatch(input, mt, { alignment });
    assert.ok(repair);
    assert.equal(repair.target, 'El gato come su comida');
    assert.deepEqual(
      repair.changes.map((c) => repair.target.slice(c.start, c.end)),
      ['gato'],
    );
    assert.deepEqual([repair.differences, repair.patched, repair.aligned], [1, 1, 1]);
  });

  it('does not patch where the engine renders the context otherwise than the translator', async () => {
    // "El animal come": the MT of "The cat eats" shares no word with the span "El can come" but "come".
    const other = dictionary({ 'The dog eats': 'El perro come', 'The cat eats': 'Los gatos comen' });
    assert.equal(await repairMatch(input, other, { alignment }), null);
  });

  it('never patches from a bare phrase: its MT has no context to check', async () => {
    const bareOnly = dictionary({ dog: 'perro', cat: 'gato' });
    assert.equal(await repairMatch(input, bareOnly, { alignment }), null);
  });

  it('chooses, among the places MT’s phrase occurs, the one the alignments give', async () => {
    const twice = {
      source: 'the red box and the white ball',
      matchSource: 'the red box and the red ball',
      matchTarget: 'la caja roja y la pelota roja',
    };
    const engine = dictionary({ red: 'roja', white: 'blanca' });
    // "roja" is in the target twice: MT alone does not know which.
    assert.equal(await repairMatch(twice, engine), null);
    const colours = lexicon({ red: 'roja', box: 'caja', and: 'y', ball: 'pelota' });
    const repair = await repairMatch(twice, engine, {
      alignment: alignPair(twice.matchSource, twice.matchTarget, colours, stemmerOf('es')),
    });
    assert.equal(repair?.target, 'la caja roja y la pelota blanca');
    assert.equal(repair?.aligned, 1);
  });

  it('keeps the translator’s anchors: only what lies between the engine’s anchors is replaced', async () => {
    const n = narrowed('Abra el can viejo ahora', { start: 5, end: 17 }, 'el perro viejo', 'el gato viejo');
    assert.deepEqual(n, { start: 7, end: 12, text: ' gato ' });
    // The span's edges are not the engine's anchors: nothing is replaced.
    assert.equal(
      narrowed('Abra la can vieja', { start: 5, end: 17 }, 'el perro viejo', 'el gato viejo'),
      null,
    );
    // An insertion: nothing lies between the anchors in the span, the new words go there.
    assert.deepEqual(narrowed('su comida diaria', { start: 0, end: 9 }, 'su comida', 'su buena comida'), {
      start: 2,
      end: 3,
      text: ' buena ',
    });
  });

  it('leaves a phrase whose placeholder the alignments cannot place (they link words only)', async () => {
    const engine = dictionary({
      'copy file %s now': 'copie fichero %s ahora',
      'copy folder today now': 'copie carpeta hoy ahora',
      'file %s now': 'archivo %s ahora',
      'folder today now': 'carpeta hoy ahora',
    });
    const input = {
      source: 'copy folder today now',
      matchSource: 'copy file %s now',
      matchTarget: 'copie el fichero ahora %s',
    };
    const words = lexicon({ copy: 'copie', file: 'fichero', now: 'ahora' });
    const alignment = alignPair(input.matchSource, input.matchTarget, words, stemmerOf('es'));
    // "copy file %s now" projects onto "copie el fichero ahora", which does not hold the "%s" after it.
    assert.equal(
      projected(input.matchSource, input.matchTarget, 'copy file %s now', words),
      'copie el fichero ahora',
    );
    assert.equal(await repairMatch(input, engine, { alignment }), null);
    // With the placeholder inside the span, the same phrase is patched.
    const inside = { ...input, matchTarget: 'copie el fichero %s ahora' };
    const repair = await repairMatch(inside, engine, {
      alignment: alignPair(inside.matchSource, inside.matchTarget, words, stemmerOf('es')),
    });
    assert.equal(repair?.target, 'copie carpeta hoy ahora');
  });
});
