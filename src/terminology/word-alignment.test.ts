import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stemmerOf } from './stemmers.ts';
import { RANK_WEIGHTS, WordAligner, wordTokens } from './word-alignment.ts';

// A small memory in the way of a software UI's: each content word in several contexts, so that EM can tell
// a word from the words it keeps company with.
const PAIRS = [
  ['Open the file', 'Öffnen Sie die Datei'],
  ['Save the file', 'Speichern Sie die Datei'],
  ['Close the file', 'Schließen Sie die Datei'],
  ['Open the folder', 'Öffnen Sie den Ordner'],
  ['Save the folder', 'Speichern Sie den Ordner'],
  ['Close the window', 'Schließen Sie das Fenster'],
  ['The file is open', 'Die Datei ist geöffnet'],
  ['The folder is empty', 'Der Ordner ist leer'],
  ['The window is empty', 'Das Fenster ist leer'],
  ['Delete the file', 'Löschen Sie die Datei'],
  ['Delete the folder', 'Löschen Sie den Ordner'],
  ['Rename the file', 'Benennen Sie die Datei um'],
  ['Print the file', 'Drucken Sie die Datei'],
  ['Print the window', 'Drucken Sie das Fenster'],
  ['The file was deleted', 'Die Datei wurde gelöscht'],
  ['The folder was deleted', 'Der Ordner wurde gelöscht'],
  ['Translation memory', 'Translation-Memory'],
  ['Search the translation memory', 'Durchsuchen Sie das Translation-Memory'],
  ['Import a translation memory', 'Importieren Sie ein Translation-Memory'],
  ['Export the translation memory', 'Exportieren Sie das Translation-Memory'],
  ['The translation is good', 'Die Übersetzung ist gut'],
  ['Review the translation', 'Prüfen Sie die Übersetzung'],
  ['Machine translation', 'Maschinelle Übersetzung'],
  ['The memory is full', 'Der Speicher ist voll'],
  ['Free memory', 'Freier Speicher'],
  ['Old files', 'Alte Dateien'],
  ['An old folder', 'Ein alter Ordner'],
  ['The old window', 'Das alte Fenster'],
  ['It is old', 'Es ist alt'],
  ['The file is old', 'Die Datei ist alt'],
].map(([source, target]) => ({ source, target }));

function trained() {
  const aligner = new WordAligner();
  aligner.train(PAIRS);
  return aligner;
}

describe('WordAligner', () => {
  it('learns a word from the sentences it keeps company with', () => {
    const aligner = trained();
    assert.equal(aligner.translations('file')[0]?.target, 'Datei');
    assert.equal(aligner.translations('folder')[0]?.target, 'Ordner');
    assert.equal(aligner.translations('window')[0]?.target, 'Fenster');
    assert.equal(aligner.translations('deleted')[0]?.target, 'gelöscht');
  });

  it('answers a phrase as the span its words are linked to, with examples from the memory', () => {
    const answer = trained().translations('translation memory');
    // Every sentence holding the phrase gives a span holding its translation. (A stray link of the diagonal
    // prior sometimes takes in the article before it, "das Translation-Memory": trimming such words by
    // frequency was measured, and lost more two-word entries than it mended.)
    assert.ok(
      answer.every((t) => /Translation-Memory/.test(t.target)),
      JSON.stringify(answer),
    );
    assert.equal(
      answer.reduce((n, t) => n + t.count, 0),
      4,
    );
    assert.ok(answer.every((t) => t.examples.every((e) => e.target.includes(t.target))));
  });

  it('counts inflected forms as one translation, named by the shortest form seen often enough', () => {
    const stems: Record<string, string> = { alte: 'alt', alter: 'alt', alt: 'alt', dateien: 'datei' };
    const answer = trained().translations('old', { stem: (w) => stems[w] ?? w });
    assert.equal(answer[0].target, 'alt');
    assert.equal(answer[0].count, 5);
    // Without a stemmer each form stands alone.
    assert.ok(trained().translations('old')[0].count < 5);
  });

  it('answers nothing for a word it never saw, and is case-blind in the query', () => {
    const aligner = trained();
    assert.deepEqual(aligner.translations('spreadsheet'), []);
    assert.equal(aligner.translations('FILE')[0]?.target, 'Datei');
    assert.equal(aligner.frequency('file'), 9);
    assert.equal(aligner.frequency('translation memory'), 4);
    assert.equal(aligner.frequency('memory translation'), 0);
  });

  it('reports what it trained on and leaves out over-long pairs', () => {
    const aligner = new WordAligner();
    const long = { source: Array(80).fill('word').join(' '), target: Array(80).fill('Wort').join(' ') };
    const figures = aligner.train([...PAIRS, long, { source: '%s', target: '%s' }], { maxTokens: 60 });
    assert.equal(figures.pairs, PAIRS.length);
    assert.equal(figures.skipped, 1);
    assert.ok(figures.parameters > 0);
  });

  it('tokenizes words and numbers, not tags, placeholders or punctuation', () => {
    assert.deepEqual(wordTokens('Open <b>3</b> files: %s!').norms, ['open', '3', 'files']);
  });

  it('reads an accelerator mark inside a word as no word break, and answers the word without it', () => {
    assert.deepEqual(wordTokens('Ausgewählte Unte_rtitel anpassen').norms, [
      'ausgewählte',
      'untertitel',
      'anpassen',
    ]);
    assert.deepEqual(wordTokens('Ko&rrekturen').norms, ['korrekturen']);
    // Several marks are an identifier's, not an accelerator: the words stay apart.
    assert.deepEqual(wordTokens('--from=CURRENT_OWNER:CURRENT_GROUP').norms, [
      'from',
      'current',
      'owner',
      'current',
      'group',
    ]);
    const aligner = new WordAligner();
    aligner.train([
      ...PAIRS,
      ...[
        ['The subtitles are old', 'Die Untertitel sind alt'],
        ['Delete the subtitles', 'Löschen Sie die Untertitel'],
        ['_Print the subtitles', 'Drucken Sie die Unte_rtitel'],
        ['_Save the subtitles', 'Speichern Sie die Unte_rtitel'],
        ['The ai_flags are old', 'Die ai_flags sind alt'],
        ['Save the ai_flags', 'Speichern Sie die ai_flags'],
      ].map(([source, target]) => ({ source, target })),
    ]);
    const subtitles = aligner.translations('subtitles');
    assert.equal(subtitles[0]?.target, 'Untertitel', JSON.stringify(subtitles));
    assert.ok(
      subtitles.every((t) => !t.target.includes('_')),
      JSON.stringify(subtitles),
    );
    // An identifier written alike on both sides keeps its underscore.
    assert.equal(aligner.translations('ai_flags')[0]?.target, 'ai_flags');
  });
  it('offers a span grown by an unlinked neighbouring word, counted below the linked span', () => {
    // "Sie" of "Speichern Sie die Datei" is linked to no English word: "Speichern Sie" is a candidate too
    // (as a phrase table would extract it), from the same sentences, ranked after "Speichern".
    const answer = trained().translations('save');
    assert.equal(answer[0].target, 'Speichern');
    const grown = answer.findIndex((t) => t.target === 'Speichern Sie');
    assert.ok(grown > 0, JSON.stringify(answer));
    assert.equal(answer[grown].count, answer[0].count);
  });

  it('takes a segment of the phrase alone whole, with the auxiliary the links leave out', () => {
    // In sentences "skipping" is linked to "übersprungen"; the memory's label "Skipping %s" says "%s wird
    // übersprungen", whose "wird" no English word is linked to: the label's rendering wins.
    const pairs = [
      ...PAIRS,
      { source: 'Skipping the file', target: 'Die Datei übersprungen' },
      { source: 'Skipping the folder', target: 'Den Ordner übersprungen' },
      { source: 'Skipping the window', target: 'Das Fenster übersprungen' },
      { source: 'Skipping old files', target: 'Alte Dateien übersprungen' },
      { source: 'Skipping %s', target: '%s wird übersprungen' },
    ];
    const aligner = new WordAligner();
    aligner.train(pairs);
    const answer = aligner.translations('skipping');
    assert.equal(answer[0]?.target, 'wird übersprungen', JSON.stringify(answer));
    assert.ok(
      answer.some((t) => t.target === 'übersprungen'),
      JSON.stringify(answer),
    );
  });

  it('ranks by p(source | target) too, and prefers a word to the compounds holding it', () => {
    // "kann" renders "cannot" in the sentences that hold "open": linked to "open" now and then, it is in more
    // sentences than "open" renders it in, and goes after "Öffnen".
    const pairs = [
      ['Cannot open the file', 'Die Datei kann nicht geöffnet werden'],
      ['Cannot open the folder', 'Der Ordner kann nicht geöffnet werden'],
      ['Cannot open the window', 'Das Fenster kann nicht geöffnet werden'],
      ['Cannot save the file', 'Die Datei kann nicht gespeichert werden'],
      ['Open the file', 'Öffnen Sie die Datei'],
      ['Open the folder', 'Öffnen Sie den Ordner'],
      ['Save the file', 'Speichern Sie die Datei'],
      ['Save the folder', 'Speichern Sie den Ordner'],
      ['The file is open', 'Die Datei ist geöffnet'],
      ['The window is open', 'Das Fenster ist geöffnet'],
      ['The week number', 'Die Wochennummer'],
      ['Show the week number', 'Die Wochennummer anzeigen'],
      ['The start of the week', 'Der Wochenbeginn'],
      ['Set the start of the week', 'Den Wochenbeginn festlegen'],
      ['The week', 'Die Woche'],
      ['Every week', 'Jede Woche'],
      ['The number', 'Die Nummer'],
      ['The page number', 'Die Seitennummer'],
      ['Show the page', 'Die Seite anzeigen'],
      ['Show the number', 'Die Nummer anzeigen'],
      ['Set the number', 'Die Nummer festlegen'],
      ['The start', 'Der Beginn'],
    ].map(([source, target]) => ({ source, target }));
    const aligner = new WordAligner();
    aligner.train(pairs);
    const open = aligner.translations('open').map((t) => t.target);
    assert.equal(open[0], 'Öffnen', JSON.stringify(open));
    assert.equal(aligner.translations('start')[0]?.target, 'Beginn');
    const week = aligner.translations('week').map((t) => t.target);
    assert.equal(week[0], 'Woche', JSON.stringify(week));
  });

  it('doubts a one-word span beside an unlinked content word: a compound rendering both', () => {
    // "Sign Language" → "Gebärdensprache": a target word is linked to one source word, so "sign" is left
    // unlinked and "language" takes the compound. Those sentences count a quarter (RANK_WEIGHTS.shared); at
    // full weight the five language names outvote the three sentences that render "language" alone.
    const common = [
      ['Open the file', 'Öffnen Sie die Datei'],
      ['Save the file', 'Speichern Sie die Datei'],
      ['Close the window', 'Schließen Sie das Fenster'],
      ['The file is open', 'Die Datei ist geöffnet'],
      ['The folder is empty', 'Der Ordner ist leer'],
      ['Delete the folder', 'Löschen Sie den Ordner'],
    ];
    // Enough sentences that "sign", in five, is a content word (in under CONTENT_SHARE of them) and "the" is not.
    const pairs = Array.from({ length: 120 }, () => common).flat();
    pairs.push(
      ['American Sign Language', 'Amerikanische Gebärdensprache'],
      ['British Sign Language', 'Britische Gebärdensprache'],
      ['French Sign Language', 'Französische Gebärdensprache'],
      ['German Sign Language', 'Deutsche Gebärdensprache'],
      ['Swiss Sign Language', 'Schweizer Gebärdensprache'],
      ['The language', 'Die Sprache'],
      ['Choose a language', 'Wählen Sie eine Sprache'],
      ['The language of the file', 'Die Sprache der Datei'],
    );
    const aligner = new WordAligner();
    aligner.train(pairs.map(([source, target]) => ({ source, target })));
    const language = aligner.translations('language').map((t) => t.target);
    assert.deepEqual(language, ['Sprache', 'Gebärdensprache']);
    const counted = aligner.translations('language', { weights: { ...RANK_WEIGHTS, shared: 1 } });
    assert.equal(counted[0]?.target, 'Gebärdensprache');
  });

  it('prefers a short word to the hyphenated compounds holding it ("PDF" to "PDF-Dokument")', () => {
    const aligner = new WordAligner();
    aligner.train(
      [
        ['PDF document saved', 'PDF-Dokument gespeichert'],
        ['PDF document printed', 'PDF-Dokument gedruckt'],
        ['PDF document opened', 'PDF-Dokument geöffnet'],
        ['PDF document closed', 'PDF-Dokument geschlossen'],
        ['Document saved', 'Dokument gespeichert'],
        ['Document printed', 'Dokument gedruckt'],
        ['Document opened', 'Dokument geöffnet'],
        ['PDF exported', 'PDF exportiert'],
        ['PDF printed', 'PDF gedruckt'],
      ].map(([source, target]) => ({ source, target })),
    );
    // Three letters are too few to call "pdfdokument" a compound of "pdf"; the hyphen says it is one.
    assert.deepEqual(
      aligner.translations('pdf').map((t) => t.target),
      ['PDF', 'PDF-Dokument'],
    );
  });

  it('names an adjective by its uninflected form, as a label writes it, where the memory writes that form too', () => {
    const aligner = new WordAligner();
    aligner.train(
      [
        ['Invalid name', 'Ungültiger Name'],
        ['Invalid address', 'Ungültige Adresse'],
        ['Invalid input', 'Ungültige Eingabe'],
        ['Invalid value', 'Ungültiger Wert'],
        ['Invalid format', 'Ungültiges Format'],
        ['Invalid date', 'Ungültiges Datum'],
        ['The name is invalid', 'Der Name ist ungültig'],
        ['The address is empty', 'Die Adresse ist leer'],
        ['The value is empty', 'Der Wert ist leer'],
        ['The date is old', 'Das Datum ist alt'],
      ].map(([source, target]) => ({ source, target })),
    );
    const stem = stemmerOf('de');
    assert.equal(aligner.translations('invalid', { stem })[0]?.target, 'ungültig');
    // A plural keeps its ending: "Dateien" for "files", never "Datei".
    const files = new WordAligner();
    files.train([
      ...PAIRS,
      ...[
        ['The files are old', 'Die Dateien sind alt'],
        ['The files are empty', 'Die Dateien sind leer'],
        ['Delete the files', 'Löschen Sie die Dateien'],
        ['Print the files', 'Drucken Sie die Dateien'],
      ].map(([source, target]) => ({ source, target })),
    ]);
    assert.equal(files.translations('files', { stem })[0]?.target, 'Dateien');
  });

  it("samples a frequent word's sentences across the whole memory, not its first file's", () => {
    // The first 200 sentences (one product's strings) say "Reiter", the 400 after them "Registerkarte": a
    // sample of the first 150 would hold only the first.
    const pairs = [
      ...Array.from({ length: 200 }, (_, k) => ({ source: `Tab ${k}`, target: `Reiter ${k}` })),
      ...Array.from({ length: 400 }, (_, k) => ({ source: `Tab ${k}`, target: `Registerkarte ${k}` })),
    ];
    const aligner = new WordAligner();
    aligner.train(pairs);
    const tab = aligner.translations('tab', { sample: 150 });
    assert.equal(tab[0]?.target, 'Registerkarte', JSON.stringify(tab));
    assert.ok(tab[1]?.target === 'Reiter' && tab[1].count > 30, JSON.stringify(tab));
  });

  it("composes a two-word phrase from its words' translations where the links miss it", () => {
    // The label sits at the far end of each English sentence and at the start of the German: the diagonal
    // prior keeps "open" and "file" from their translations there, so no span of linked words renders the
    // phrase. Their translations (from the short sentences) side by side, in the German order, in every
    // sentence holding "open file", do.
    const pairs = [
      ['Open the file', 'Öffnen Sie die Datei'],
      ['Save the file', 'Speichern Sie die Datei'],
      ['Close the file', 'Schließen Sie die Datei'],
      ['Open the folder', 'Öffnen Sie den Ordner'],
      ['The file is open', 'Die Datei ist geöffnet'],
      ['Delete the file', 'Löschen Sie die Datei'],
      ['Open the window', 'Öffnen Sie das Fenster'],
      ['The size of the icon', 'Die Größe des Symbols'],
      ['The state of the program', 'Der Zustand des Programms'],
      ['The end of the program', 'Das Ende des Programms'],
      ['Start the program', 'Starten Sie das Programm'],
      ['Save the folder', 'Speichern Sie den Ordner'],
      [
        'Choose a document on the disk with Open file',
        'Mit Datei öffnen wählen Sie ein Dokument auf dem Datenträger',
      ],
      [
        'Any document on the disk is read by Open file',
        'Mit Datei öffnen wird jedes Dokument auf dem Datenträger gelesen',
      ],
      ['A document is read with Open file', 'Mit Datei öffnen wird ein Dokument gelesen'],
    ].map(([source, target]) => ({ source, target }));
    const aligner = new WordAligner();
    aligner.train(pairs);
    const [first] = aligner.translations('open file');
    assert.equal(first?.target, 'Datei öffnen', JSON.stringify(first));
    assert.equal(first.count, 3);
    assert.ok(first.examples.every((e) => e.target.includes('Datei öffnen')));
  });

  it("composes a compound of the two words' translations where the target vocabulary has it", () => {
    // "Zielverzeichnis" renders "target directory"; "Ziel" and "Verzeichnis" are learned from the short sentences.
    const pairs = [
      ['Open the directory', 'Öffnen Sie das Verzeichnis'],
      ['The directory is empty', 'Das Verzeichnis ist leer'],
      ['Delete the directory', 'Löschen Sie das Verzeichnis'],
      ['Set the target', 'Legen Sie das Ziel fest'],
      ['The target is empty', 'Das Ziel ist leer'],
      ['Choose the target', 'Wählen Sie das Ziel'],
      [
        'Choose a document on the disk for the target directory',
        'Zielverzeichnis für ein Dokument auf dem Datenträger wählen',
      ],
      [
        'Any document on the disk is copied to the target directory',
        'Zielverzeichnis, in das jedes Dokument auf dem Datenträger kopiert wird',
      ],
      ['A document is read from the target directory', 'Zielverzeichnis, aus dem ein Dokument gelesen wird'],
    ].map(([source, target]) => ({ source, target }));
    const aligner = new WordAligner();
    aligner.train(pairs);
    const [first] = aligner.translations('target directory');
    assert.equal(first?.target, 'Zielverzeichnis', JSON.stringify(first));
    assert.equal(first.count, 3);
  });

  it("composes a hyphenated compound of the two words' translations where the target vocabulary has it", () => {
    // "Master-Server" renders "master server" (one token: the tokenizer keeps a hyphenated word whole); "Master"
    // and "Server" are learned from the short sentences. The label sits at the far end of each English sentence
    // and at the start of the German, so no span of linked words gives it.
    const pairs = [
      ['Open the server', 'Öffnen Sie den Server'],
      ['The server is empty', 'Der Server ist leer'],
      ['Delete the server', 'Löschen Sie den Server'],
      ['Set the master', 'Legen Sie den Master fest'],
      ['The master is empty', 'Der Master ist leer'],
      ['Choose the master', 'Wählen Sie den Master'],
      [
        'Choose a document on the disk for the master server',
        'Master-Server für ein Dokument auf dem Datenträger wählen',
      ],
      [
        'Any document on the disk is copied to the master server',
        'Master-Server, auf den jedes Dokument auf dem Datenträger kopiert wird',
      ],
      ['A document is read from the master server', 'Master-Server, von dem ein Dokument gelesen wird'],
    ].map(([source, target]) => ({ source, target }));
    const aligner = new WordAligner();
    aligner.train(pairs);
    const [first] = aligner.translations('master server');
    assert.equal(first?.target, 'Master-Server', JSON.stringify(first));
    assert.equal(first.count, 3);
    // Where the target side writes the two words apart and never hyphenated, no hyphenated word is made up.
    const apart = new WordAligner();
    apart.train(
      pairs.map((p) => ({ source: p.source, target: p.target.replace('Master-Server', 'Master Server') })),
    );
    const answers = apart.translations('master server').map((t) => t.target);
    assert.ok(answers.length > 0 && answers.every((t) => !t.includes('-')), JSON.stringify(answers));
  });

  it('counts a composed compound in every inflected form the target vocabulary has', () => {
    // The sentences holding "background icon" write the compound in the genitive, "des Hintergrundsymbols";
    // the target side also writes "Hintergrundsymbol" elsewhere. Both forms are the one composed candidate (the
    // first form met used to stand for the compound alone, and counted none of these sentences), which then
    // ranks over the span a single sentence gives ("Hintergrund jetzt").
    const pairs = [
      ['Open the background', 'Öffnen Sie den Hintergrund'],
      ['The background is empty', 'Der Hintergrund ist leer'],
      ['Delete the background', 'Löschen Sie den Hintergrund'],
      ['Set the icon', 'Legen Sie das Symbol fest'],
      ['The icon is empty', 'Das Symbol ist leer'],
      ['Choose the icon', 'Wählen Sie das Symbol'],
      ['The size of the background icon', 'Die Größe des Hintergrundsymbols'],
      ['The colour of the background icon', 'Die Farbe des Hintergrundsymbols'],
      ['The name of the background icon', 'Der Name des Hintergrundsymbols'],
      ['The size of the window', 'Die Größe des Fensters'],
      ['The colour of the window', 'Die Farbe des Fensters'],
      ['The name of the window', 'Der Name des Fensters'],
      ['Open the window', 'Öffnen Sie das Fenster'],
      ['The size of the icon', 'Die Größe des Symbols'],
      ['The state of the program', 'Der Zustand des Programms'],
      ['The end of the program', 'Das Ende des Programms'],
      ['Start the program', 'Starten Sie das Programm'],
      ['Hide the tray symbol', 'Das Hintergrundsymbol ausblenden'],
      ['Show the background icon now', 'Symbol im Hintergrund jetzt zeigen'],
    ].map(([source, target]) => ({ source, target }));
    const stem = stemmerOf('de');
    const aligner = new WordAligner();
    aligner.train(pairs);
    const answers = aligner.translations('background icon', { stem }).map((t) => t.target);
    assert.equal(answers[0], 'Hintergrundsymbols', JSON.stringify(answers));
    // Without the sentence writing the base form, the compound is the one form, and ranks first all the same.
    const one = new WordAligner();
    one.train(pairs.filter((p) => !p.source.startsWith('Hide')));
    assert.equal(one.translations('background icon', { stem })[0]?.target, 'Hintergrundsymbols');
  });

  it("composes a two-word phrase from its words' translations a word or two apart, the words between taken in", () => {
    // "Invalid address" is rendered "Dirección no válida": "no" stands between the two words' translations
    // ("no" is learned as "not"'s, "válida" as "invalid"'s), so neither a span of linked words (the label sits
    // at the far end of each English sentence and at the start of the Spanish) nor two words side by side gives
    // it. Without the gappy candidates (their weight 0) it is not among the answers at all.
    const pairs = [
      ['The address is invalid', 'La dirección no es válida'],
      ['The name is invalid', 'El nombre no es válido'],
      ['Invalid name', 'Nombre no válido'],
      ['Invalid file', 'Archivo no válido'],
      ['The file is invalid', 'El archivo no es válido'],
      ['Open the address', 'Abra la dirección'],
      ['Copy the address', 'Copie la dirección'],
      ['Copy the name', 'Copie el nombre'],
      ['Open the file', 'Abra el archivo'],
      ['Not found', 'No encontrado'],
      ['The file was not found', 'El archivo no fue encontrado'],
      ['Do not copy the file', 'No copie el archivo'],
      ['Do not open the file', 'No abra el archivo'],
      ['The mail was returned', 'El correo fue devuelto'],
      ['The message was refused', 'El mensaje fue rechazado'],
      ['The server answered', 'El servidor respondió'],
      ['The file was returned', 'El archivo fue devuelto'],
      ['The server answered Invalid address', 'Dirección no válida, respondió el servidor'],
      ['The mail was returned with Invalid address', 'Dirección no válida: el correo fue devuelto'],
      ['A message was refused for Invalid address', 'Dirección no válida: un mensaje fue rechazado'],
    ].map(([source, target]) => ({ source, target }));
    const aligner = new WordAligner();
    aligner.train(pairs);
    const [first] = aligner.translations('invalid address');
    assert.equal(first?.target, 'Dirección no válida', JSON.stringify(first));
    assert.equal(first.count, 3);
    const without = aligner.translations('invalid address', { weights: { ...RANK_WEIGHTS, gappy: 0 } });
    assert.ok(
      without.every((t) => t.target !== 'Dirección no válida'),
      JSON.stringify(without),
    );
  });

  it('ranks a phrase its words are written apart in below the same words side by side', () => {
    // Three sentences write "Datei öffnen" for "Open file", one "Datei hier öffnen": the gappy candidate is
    // offered, counted once, after the side-by-side one.
    const pairs = [
      ['Open the file', 'Öffnen Sie die Datei'],
      ['Save the file', 'Speichern Sie die Datei'],
      ['Close the file', 'Schließen Sie die Datei'],
      ['Open the folder', 'Öffnen Sie den Ordner'],
      ['The file is open', 'Die Datei ist geöffnet'],
      ['Delete the file', 'Löschen Sie die Datei'],
      ['Open the window', 'Öffnen Sie das Fenster'],
      ['The size of the icon', 'Die Größe des Symbols'],
      ['The state of the program', 'Der Zustand des Programms'],
      ['The end of the program', 'Das Ende des Programms'],
      ['Start the program', 'Starten Sie das Programm'],
      ['Save the folder', 'Speichern Sie den Ordner'],
      [
        'Choose a document on the disk with Open file',
        'Mit Datei öffnen wählen Sie ein Dokument auf dem Datenträger',
      ],
      [
        'Any document on the disk is read by Open file',
        'Mit Datei öffnen wird jedes Dokument auf dem Datenträger gelesen',
      ],
      ['A document is read with Open file', 'Mit Datei öffnen wird ein Dokument gelesen'],
      ['Click here', 'Klicken Sie hier'],
      ['Save the file here', 'Speichern Sie die Datei hier'],
      ['Open file here', 'Datei hier öffnen'],
    ].map(([source, target]) => ({ source, target }));
    const aligner = new WordAligner();
    aligner.train(pairs);
    const answer = aligner.translations('open file');
    assert.equal(answer[0]?.target, 'Datei öffnen', JSON.stringify(answer));
    const gappy = answer.findIndex((t) => t.target === 'Datei hier öffnen');
    assert.ok(gappy > 0, JSON.stringify(answer));
    assert.equal(answer[gappy].count, 1);
  });

  it('composes a guess from the words alone where the sentences holding a phrase give no rendering of it', () => {
    // The one sentence holding "invalid status" renders it by nothing ("42"), and no sentence writes "estado"
    // and "inválido" together: the answer is the two words' likeliest translations, ordered as the links order
    // "invalid" and the word after it ("Invalid name" → "Nombre inválido"), counted in no sentence. A phrase
    // its sentences do render gets no such guess.
    const pairs = [
      ['The status is shown', 'Se muestra el estado'],
      ['Show the status', 'Muestre el estado'],
      ['The status of the file', 'El estado del archivo'],
      ['Invalid name', 'Nombre inválido'],
      ['Invalid file', 'Archivo inválido'],
      ['Invalid value', 'Valor inválido'],
      ['Invalid user', 'Usuario inválido'],
      ['Invalid port', 'Puerto inválido'],
      ['Invalid mode', 'Modo inválido'],
      ['Show the user', 'Muestre el usuario'],
      ['Show the port', 'Muestre el puerto'],
      ['Show the mode', 'Muestre el modo'],
      ['The name is invalid', 'El nombre es inválido'],
      ['The port is invalid', 'El puerto es inválido'],
      ['The user is invalid', 'El usuario es inválido'],
      ['The mode is invalid', 'El modo es inválido'],
      ['Invalid status 42', '42'],
      ['Error 42', '42'],
      ['Value 42', 'Valor 42'],
      ['The name is shown', 'Se muestra el nombre'],
      ['Show the file', 'Muestre el archivo'],
      ['Show the value', 'Muestre el valor'],
    ].map(([source, target]) => ({ source, target }));
    const aligner = new WordAligner();
    aligner.train(pairs);
    const guess = aligner.translations('invalid status');
    assert.deepEqual(
      guess.map((t) => [t.target, t.count]),
      [['estado inválido', 0]],
    );
    const rendered = aligner.translations('invalid name');
    assert.equal(rendered[0]?.target, 'Nombre inválido', JSON.stringify(rendered));
    assert.ok(
      rendered.every((t) => t.count > 0),
      JSON.stringify(rendered),
    );
  });

  it('answers a name the target keeps only inside hyphenated compounds with the name itself ("XBM" of "XBM-Datei")', () => {
    // "XBM" and "Puebla" are never written alone: each sentence renders the name and its neighbour as one
    // hyphenated compound, which the links give the name. The name, kept as it is, is the translation; the
    // compounds follow it.
    const aligner = new WordAligner();
    aligner.train([
      ...PAIRS,
      ...[
        ['XBM file saved', 'XBM-Datei gespeichert'],
        ['XBM file printed', 'XBM-Datei gedruckt'],
        ['XBM image saved', 'XBM-Bild gespeichert'],
        ['XBM image printed', 'XBM-Bild gedruckt'],
        ['Image saved', 'Bild gespeichert'],
        ['Image printed', 'Bild gedruckt'],
        ['File saved', 'Datei gespeichert'],
        ['File printed', 'Datei gedruckt'],
        ['Central Puebla', 'Zentral-Puebla'],
        ['Highland Puebla', 'Hochland-Puebla'],
        ['North Puebla', 'Nord-Puebla'],
      ].map(([source, target]) => ({ source, target })),
    ]);
    const stem = stemmerOf('de');
    const xbm = aligner.translations('xbm', { stem });
    assert.equal(xbm[0]?.target, 'XBM', JSON.stringify(xbm));
    assert.ok(
      xbm.slice(1).some((t) => t.target.startsWith('XBM-')),
      JSON.stringify(xbm),
    );
    assert.equal(aligner.translations('puebla', { stem })[0]?.target, 'Puebla');
  });

  it('answers a word its sentences render by nothing consistent with the word their targets keep', () => {
    // The one sentence holding "Turkmenistan" renders it and "manat" by one hyphenated word, linked to both:
    // no span is consistent with the links, and the target keeps the name.
    const aligner = new WordAligner();
    aligner.train([
      ...PAIRS,
      ...[
        ['Turkmenistan New Manat', 'Turkmenistan-Manat'],
        ['Manat', 'Manat'],
      ].map(([source, target]) => ({ source, target })),
    ]);
    const found = aligner.translations('turkmenistan', { stem: stemmerOf('de') });
    assert.deepEqual(
      found.map((t) => [t.target, t.count]),
      [['Turkmenistan', 1]],
    );
  });

  it('names a two-word translation in the nominative, as a label writes it, of two forms as long', () => {
    // Sentences write the dative "unbekanntem Typ" more often than the label's "Unbekannter Typ"; both are as
    // long and frequent enough to name it.
    const aligner = new WordAligner();
    aligner.train(
      [
        ['Unknown type: %s', 'Unbekannter Typ: %s'],
        ['Unknown type in %s', 'Unbekannter Typ in %s'],
        ['For unknown type %s', 'Für unbekannten Typ %s'],
        ['With unknown type %s', 'Mit unbekanntem Typ %s'],
        ['From unknown type %s', 'Von unbekanntem Typ %s'],
        ['At unknown type %s', 'Bei unbekanntem Typ %s'],
        ['For the file', 'Für die Datei'],
        ['With the file', 'Mit der Datei'],
        ['From the file', 'Von der Datei'],
        ['At the file', 'Bei der Datei'],
        ['Unknown name', 'Unbekannter Name'],
        ['Unknown file', 'Unbekannte Datei'],
        ['The type is old', 'Der Typ ist alt'],
        ['The type is empty', 'Der Typ ist leer'],
        ['The name is unknown', 'Der Name ist unbekannt'],
      ].map(([source, target]) => ({ source, target })),
    );
    const found = aligner.translations('unknown type', { stem: stemmerOf('de') });
    assert.equal(found[0]?.target, 'Unbekannter Typ', JSON.stringify(found));
  });
});
