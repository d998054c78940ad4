import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changedWords, inflectedLike, planRepair, repairMatch, sameStem, type Translate } from './repair.ts';

/** An MT engine that knows a few phrases (and nothing else), recording its batches. */
function dictionary(entries: Record<string, string>) {
  const batches: string[][] = [];
  const translate: Translate = async (texts) => {
    batches.push(texts);
    return texts.map((t) => entries[t] ?? null);
  };
  return { translate, batches };
}

const marked = (text: string, changes: { start: number; end: number }[]) =>
  changes.map((c) => text.slice(c.start, c.end));

describe('repairMatch', () => {
  it('replaces the MT of the anchored phrase, found once in the target, with the new phrase’s MT, in one batch', async () => {
    const mt = dictionary({
      'the old file': 'el archivo viejo',
      'the new file': 'el archivo nuevo',
    });
    const repair = await repairMatch(
      { source: 'Open the new file', matchSource: 'Open the old file', matchTarget: 'Abra el archivo viejo' },
      mt.translate,
    );
    assert.ok(repair);
    assert.equal(repair.target, 'Abra el archivo nuevo');
    assert.deepEqual(marked(repair.target, repair.changes), ['nuevo']);
    assert.equal(repair.patched, 1);
    assert.equal(mt.batches.length, 1);
    assert.deepEqual(mt.batches[0], [
      'the old file',
      'the new file',
      'the old',
      'the new',
      'old file',
      'new file',
      'old',
      'new',
    ]);
  });

  it('falls back to less context when the anchored phrase is not in the target', async () => {
    const mt = dictionary({
      'the old file': 'el fichero antiguo',
      'the new file': 'el fichero nuevo',
      old: 'viejo',
      new: 'nuevo',
    });
    const repair = await repairMatch(
      { source: 'Open the new file', matchSource: 'Open the old file', matchTarget: 'Abra el archivo viejo' },
      mt.translate,
    );
    assert.equal(repair?.target, 'Abra el archivo nuevo');
  });

  it('is not offered when the phrase occurs twice (ambiguous) or not at all', async () => {
    const mt = dictionary({ old: 'viejo', new: 'nuevo' });
    assert.equal(
      await repairMatch(
        {
          source: 'Open the new file',
          matchSource: 'Open the old file',
          matchTarget: 'Abra el viejo archivo viejo',
        },
        mt.translate,
      ),
      null,
    );
    assert.equal(
      await repairMatch(
        {
          source: 'Open the new file',
          matchSource: 'Open the old file',
          matchTarget: 'Abra el archivo antiguo',
        },
        mt.translate,
      ),
      null,
    );
  });

  it('is not offered when the engine gives nothing', async () => {
    const mt = dictionary({});
    assert.equal(
      await repairMatch(
        {
          source: 'Open the new file',
          matchSource: 'Open the old file',
          matchTarget: 'Abra el archivo viejo',
        },
        mt.translate,
      ),
      null,
    );
  });

  it('locates by stems when the target inflects the word otherwise', async () => {
    const mt = dictionary({
      'selected files': 'archivos seleccionados',
      'selected folders': 'carpetas seleccionadas',
    });
    const repair = await repairMatch(
      {
        source: 'Delete the selected folders',
        matchSource: 'Delete the selected files',
        matchTarget: 'Borrar los archivos seleccionado',
      },
      mt.translate,
    );
    // The target's ending (no -s) is kept where the engine's was: its inflection, not the engine's.
    assert.equal(repair?.target, 'Borrar los carpetas seleccionada');
    assert.equal(sameStem('seleccionado', 'seleccionados'), true);
    assert.equal(sameStem('abrir', 'abre'), false);
  });

  it('gives the new word the target’s inflection where the engine’s differs (an infinitive, not an imperative)', async () => {
    const mt = dictionary({
      // The contexts: one word either side of the difference ("cannot copy the" is unknown here).
      'copy the': 'copia la',
      'rename the': 'rebautiza la',
    });
    const repair = await repairMatch(
      {
        source: 'cannot rename the current branch',
        matchSource: 'cannot copy the current branch',
        matchTarget: 'no se puede copiar la rama actual',
      },
      mt.translate,
    );
    assert.equal(repair?.target, 'no se puede rebautizar la rama actual');
    assert.equal(inflectedLike('Copiar la rama', 'copia la rama', 'rebautiza la rama'), 'rebautizar la rama');
  });

  it('never cuts through a tag, and keeps the target’s tags where they are', async () => {
    const mt = dictionary({
      old: 'viejo',
      new: 'nuevo',
      'old file': 'archivo viejo',
      'new file': 'archivo nuevo',
    });
    const repair = await repairMatch(
      {
        source: 'Open the <g id="1">new</g> file',
        matchSource: 'Open the <g id="1">old</g> file',
        matchTarget: 'Abra el archivo <g id="1">viejo</g>',
      },
      mt.translate,
    );
    // "the <g>old" would hold a tag: only the bare word is sent.
    assert.deepEqual(
      planRepair({
        source: 'the <g id="1">new</g> x',
        matchSource: 'the <g id="1">old</g> x',
        matchTarget: '',
      })?.texts,
      ['old', 'new'],
    );
    assert.equal(repair?.target, 'Abra el archivo <g id="1">nuevo</g>');
  });

  it('a deletion anchored on both sides', async () => {
    const mt = dictionary({ 'all the files': 'todos los archivos', 'all files': 'todos archivos' });
    const repair = await repairMatch(
      {
        source: 'Delete all files',
        matchSource: 'Delete all the files',
        matchTarget: 'Borrar todos los archivos',
      },
      mt.translate,
    );
    assert.equal(repair?.target, 'Borrar todos archivos');
    assert.deepEqual(repair?.changes, []);
  });

  it('carries numbers, placeholders and the edges over without MT', async () => {
    const mt = dictionary({});
    const repair = await repairMatch(
      {
        source: 'invalid operand, not a multiple of 32: %ld',
        matchSource: 'Invalid operand, not a multiple of 4: %d.',
        matchTarget: 'Operando inválido, no es un múltiplo de 4: %d.',
      },
      mt.translate,
    );
    assert.equal(repair?.target, 'operando inválido, no es un múltiplo de 32: %ld');
    assert.deepEqual(marked(repair!.target, repair!.changes), ['o', '32', '%ld']);
    assert.equal(mt.batches.length, 0);
  });

  it('gives the patch the case of its place', async () => {
    const mt = dictionary({
      'Unknown protocol': 'Protocolo desconocido',
      'Unknown family': 'Familia desconocida',
    });
    const repair = await repairMatch(
      {
        source: 'Unknown family was specified',
        matchSource: 'Unknown protocol was specified',
        matchTarget: 'Se especificó un protocolo desconocido',
      },
      mt.translate,
    );
    assert.equal(repair?.target, 'Se especificó un familia desconocida');
  });

  it('changedWords marks the words between the common ones', () => {
    assert.deepEqual(changedWords('el archivo viejo', 'el archivo nuevo'), { start: 11, end: 16 });
    assert.equal(changedWords('todos los archivos', 'todos archivos'), null);
  });
});
