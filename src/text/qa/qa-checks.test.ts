import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findNumbers } from './numbers.ts';
import { checkSegment, QA_CODES, type QaOptions } from './qa-checks.ts';

const EN_DE: QaOptions = { srcLang: 'en', trgLang: 'de' };
const EN_FR: QaOptions = { srcLang: 'en', trgLang: 'fr' };
const EN_JA: QaOptions = { srcLang: 'en', trgLang: 'ja' };
const DE_EN: QaOptions = { srcLang: 'de', trgLang: 'en' };
const NNBSP = '\u202f';
const NBSP = '\u00a0';

const codes = (source: string, target: string | null, options: QaOptions) =>
  checkSegment(source, target, options).map((i) => i.code);

describe('QA checks', () => {
  test('codes are a stable, unique list', () => {
    const values = Object.values(QA_CODES);
    assert.equal(new Set(values).size, values.length);
    assert.ok(values.every((c) => /^[A-Z_]+$/.test(c)));
  });

  test('a good translation has no issues (en→de, en→fr, en→ja)', () => {
    assert.deepEqual(codes('Open the file.', 'Öffnen Sie die Datei.', EN_DE), []);
    assert.deepEqual(codes('Are you sure?', `Êtes-vous sûr${NNBSP}?`, EN_FR), []);
    assert.deepEqual(codes('Save the file.', 'ファイルを保存します。', EN_JA), []);
  });

  test('missing and extra inline tags, with the place of an extra one', () => {
    const source = 'Click <g id="1">Save</g> now<x id="2"/>.';
    assert.deepEqual(codes(source, 'Klicken Sie jetzt auf <g id="1">Speichern</g><x id="2"/>.', EN_DE), []);
    assert.deepEqual(codes(source, 'Klicken Sie jetzt auf Speichern<x id="2"/>.', EN_DE), [
      QA_CODES.tagMissing,
      QA_CODES.tagMissing,
    ]);
    const target = 'Klicken <g id="1">Sie</g> <x id="3"/><x id="2"/>.';
    const [extra] = checkSegment(source, target, EN_DE);
    assert.equal(extra.code, QA_CODES.tagExtra);
    assert.equal(extra.severity, 'error');
    assert.equal(target.slice(extra.start, extra.end), '<x id="3"/>');
    // Closed in the wrong order.
    const nested = 'A <g id="1">b <g id="2">c</g></g>';
    assert.ok(codes(nested, 'A </g><g id="1">b <g id="2">c</g>', EN_DE).includes(QA_CODES.tagExtra));
  });

  test('tags are named as the editor’s chips name them: the pair’s number and the markup it stands for', () => {
    const messages = (source: string, target: string) =>
      checkSegment(source, target, EN_DE).map((i) => [i.code, i.message]);
    // Was "Tag </g> of the source is missing", once for both closing tags, and "Tag <x id="2"/> …".
    const html =
      'Read <g id="1" ctype="bold">this</g> and <g id="2">that</g><x id="3" ctype="lb"/> or run ' +
      '<ph id="4" ctype="x-code">&lt;code&gt;gettext&lt;/code&gt;</ph>.';
    assert.deepEqual(messages(html, 'Lies <g id="1" ctype="bold">dies und das oder führe aus.'), [
      [QA_CODES.tagMissing, 'Closing tag /1 (</b>) of the source is missing'],
      [QA_CODES.tagMissing, 'Tag 2 of the source is missing'],
      [QA_CODES.tagMissing, 'Closing tag /2 of the source is missing'],
      [QA_CODES.tagMissing, 'Tag 3/ (<br>) of the source is missing'],
      [QA_CODES.tagMissing, 'Tag 4/ (<code>gettext</code>) of the source is missing'],
      [QA_CODES.tagExtra, 'Tag 1 (<b>) is not properly paired'],
    ]);
    // bpt/ept by their native code; a tag not in the source by its chip in the target.
    const android = 'Tap <bpt id="1">&lt;b&gt;</bpt>Save<ept id="1">&lt;/b&gt;</ept>';
    assert.deepEqual(messages(android, 'Tippen Sie auf Speichern<ept id="1">&lt;/b&gt;</ept><x id="7"/>'), [
      [QA_CODES.tagMissing, 'Tag 1 (<b>) of the source is missing'],
      [QA_CODES.tagExtra, 'Tag 7/ is not in the source'],
    ]);
    assert.deepEqual(
      messages(
        'See <g id="1" ctype="italic">Introduction</g>.',
        'Siehe Einleitung<g id="1" ctype="italic"></g>.',
      ),
      [[QA_CODES.tagPairEmpty, 'Tag pair 1 (<i>…</i>) is empty; in the source it encloses "Introduction"']],
    );
  });

  test('numbers are read by each language: 1,000.5 (en) is 1.000,5 (de) and 1 000,5 (fr)', () => {
    assert.deepEqual(codes('Pay 1,000.5 EUR.', 'Zahlen Sie 1.000,5 EUR.', EN_DE), []);
    assert.deepEqual(codes('Pay 1,000.5 EUR.', `Payez 1${NNBSP}000,5${NBSP}EUR.`, EN_FR), []);
    assert.deepEqual(codes('Zahlen Sie 1.000,5 EUR.', 'Pay 1,000.5 EUR.', DE_EN), []);
    assert.deepEqual(codes('Pay 1,000 EUR.', 'Zahlen Sie 1000 EUR.', EN_DE), []);
    // In German 1,000 is one: the number differs.
    const issues = checkSegment('Pay 1,000 EUR.', 'Zahlen Sie 1,000 EUR.', EN_DE);
    assert.deepEqual(
      issues.map((i) => i.code),
      [QA_CODES.numberMissing, QA_CODES.numberExtra],
    );
    assert.deepEqual(codes('Page 12 of 30.', 'Seite 13 von 30.', EN_DE), [
      QA_CODES.numberMissing,
      QA_CODES.numberExtra,
    ]);
    // Full-width digits are digits.
    assert.deepEqual(codes('Step 3.', 'ステップ３。', EN_JA), []);
    assert.deepEqual(
      findNumbers('1.000,5 und 3,14', 'de').map((n) => n.value),
      ['1000.5', '3.14'],
    );
  });

  test('final punctuation: 。 is a full stop, ？ a question mark; closing quotes are looked through', () => {
    assert.deepEqual(codes('Done.', '完了しました。', EN_JA), []);
    assert.deepEqual(codes('Really?', '本当ですか？', EN_JA), []);
    assert.deepEqual(codes('He said "go."', 'Er sagte „geh.“', EN_DE), []);
    assert.deepEqual(codes('Done.', 'Fertig', EN_DE), [QA_CODES.finalPunctuation]);
    assert.deepEqual(codes('Done', 'Fertig!', EN_DE), [QA_CODES.finalPunctuation]);
    assert.deepEqual(codes('Wait...', 'Warten Sie…', EN_DE), []);
  });

  test('leading, trailing and doubled spaces', () => {
    const lead = checkSegment('Open it.', ' Öffnen.', EN_DE);
    assert.deepEqual(
      lead.map((i) => [i.code, i.start, i.end]),
      [[QA_CODES.leadingSpace, 0, 1]],
    );
    assert.deepEqual(codes(' Open it.', 'Öffnen.', EN_DE), [QA_CODES.leadingSpace]);
    assert.deepEqual(codes('Open it.', 'Öffnen. ', EN_DE), [QA_CODES.trailingSpace]);
    const target = 'Öffnen  Sie <x id="1"/>es  jetzt.';
    const doubled = checkSegment('Open <x id="1"/>it now.', target, EN_DE);
    assert.deepEqual(
      doubled.map((i) => i.code),
      [QA_CODES.doubledSpace, QA_CODES.doubledSpace],
    );
    // Offsets are in the tagged target.
    assert.equal(target.slice(doubled[1].start, doubled[1].end), '  ');
  });

  test('French: a (narrow) no-break space before : ; ? ! is required, and is no odd space', () => {
    assert.deepEqual(codes('Note: yes!', `Remarque${NBSP}: oui${NNBSP}!`, EN_FR), []);
    assert.deepEqual(codes('Note: yes!', 'Remarque : oui!', EN_FR), [
      QA_CODES.frenchSpacing,
      QA_CODES.frenchSpacing,
    ]);
    assert.deepEqual(codes('At 10:30.', 'À 10:30.', EN_FR), []);
    assert.deepEqual(codes('See https://example.com/a?b=1.', 'Voir https://example.com/a?b=1.', EN_FR), []);
    assert.deepEqual(codes('Why?!', `Pourquoi${NNBSP}?!`, EN_FR), []);
    // Guillemets with no-break spaces inside balance; German needs no such spaces.
    assert.deepEqual(codes('He said "yes".', `Il a dit «${NBSP}oui${NBSP}».`, EN_FR), []);
    assert.deepEqual(codes('He said "yes".', 'Il a dit «oui».', EN_FR), [
      QA_CODES.frenchSpacing,
      QA_CODES.frenchSpacing,
    ]);
    assert.deepEqual(codes('Note: yes!', 'Hinweis: ja!', EN_DE), []);
  });

  test('brackets and quotes: German „…“, French « … », English “…”, Japanese 「…」', () => {
    assert.deepEqual(codes('Say "hello".', 'Sagen Sie „Hallo“.', EN_DE), []);
    assert.deepEqual(codes('Say "hello".', 'Sagen Sie „Hallo.', EN_DE), [QA_CODES.quoteUnbalanced]);
    assert.deepEqual(codes('Say “hello”.', 'Sagen Sie »Hallo«.', EN_DE), []);
    assert.deepEqual(codes('Say “hello”.', `Dites «${NBSP}bonjour.`, EN_FR), [QA_CODES.quoteUnbalanced]);
    assert.deepEqual(codes('Click "Save".', '「保存」をクリックします。', EN_JA), []);
    assert.deepEqual(codes('Open (now).', 'Öffnen (jetzt.', EN_DE), [QA_CODES.bracketUnbalanced]);
    assert.deepEqual(codes('Click "Save".', '「保存をクリックします。', EN_JA), [QA_CODES.bracketUnbalanced]);
    // A source unbalanced itself (a segment split inside brackets) is not the translator's fault.
    assert.deepEqual(codes('a) first.', 'a) erstens.', EN_DE), []);
  });

  test('URLs and e-mail addresses are kept', () => {
    const source = 'Write to help@example.com or see https://example.com/help.';
    assert.deepEqual(
      codes(source, 'Schreiben Sie an help@example.com oder siehe https://example.com/help.', EN_DE),
      [],
    );
    assert.deepEqual(
      codes(source, 'Schreiben Sie an hilfe@example.com oder siehe https://example.de/hilfe.', EN_DE),
      [QA_CODES.urlMissing, QA_CODES.emailMissing],
    );
  });

  test('target equal to source, empty target of a confirmed segment', () => {
    assert.deepEqual(codes('Open the file.', 'Open the file.', EN_DE), [QA_CODES.sameAsSource]);
    // Numbers or codes alone may stay as they are.
    assert.deepEqual(codes('42', '42', EN_DE), []);
    assert.deepEqual(codes('Open.', '', { ...EN_DE, status: 'confirmed' }), [QA_CODES.targetEmpty]);
    assert.deepEqual(codes('Open.', null, { ...EN_DE, status: 'reviewed' }), [QA_CODES.targetEmpty]);
    assert.deepEqual(codes('Open.', null, { ...EN_DE, status: 'new' }), []);
  });

  /** The issues as [code, message, the target text they point at]. */
  const found = (source: string, target: string, options: QaOptions = EN_DE) =>
    checkSegment(source, target, options).map((i) => [
      i.code,
      i.message,
      i.start === undefined ? null : target.slice(i.start, i.end),
    ]);

  test('placeholders: printf %s/%d missing, extra or changed are errors naming them as written', () => {
    assert.deepEqual(found('%s / %s available', '%s / %s verfügbar'), []);
    assert.deepEqual(found('%s / %s available', 'verfügbar'), [
      [QA_CODES.placeholderMissing, 'Placeholder %s of the source is missing', null],
      [QA_CODES.placeholderMissing, 'Placeholder %s of the source is missing', null],
    ]);
    assert.deepEqual(found('Delete %d files?', '%s: %d Dateien löschen?'), [
      [QA_CODES.placeholderExtra, 'Placeholder %s is not in the source', '%s'],
    ]);
    assert.deepEqual(found('Delete %d files?', '%s Dateien löschen?'), [
      [QA_CODES.placeholderChanged, 'Placeholder %d of the source became %s', '%s'],
    ]);
    const [changed] = checkSegment('Delete %d files?', '%s Dateien löschen?', EN_DE);
    assert.equal(changed.severity, 'error');
    // printf's literal percent sign is no placeholder.
    assert.deepEqual(found('100%% of %d', '100%% von %d'), []);
  });

  test('placeholders: unnumbered printf arguments keep their order; numbered ones (%1$s, Android) may move', () => {
    assert.deepEqual(found('File %s of %d', 'Datei %d von %s'), [
      [
        QA_CODES.placeholderChanged,
        'Placeholders %s %d of the source are in another order (%d %s); number them (%1$s, %2$d) to reorder',
        '%d',
      ],
    ]);
    // Numbered in the translation only: the same arguments, as msgfmt -c reads them; their digits are no numbers.
    assert.deepEqual(found('File %s of %d', 'Datei %2$d von %1$s'), []);
    assert.deepEqual(found('File %1$s of %2$d', 'Datei %2$d von %1$s'), []);
    assert.deepEqual(found('File %1$s of %2$d', 'Datei %2$d'), [
      [QA_CODES.placeholderMissing, 'Placeholder %1$s of the source is missing', null],
    ]);
    assert.deepEqual(found('Hello <ph id="1">%1$s</ph>', 'Hallo <ph id="1">%1$d</ph>'), [
      [QA_CODES.placeholderChanged, 'Placeholder %1$s of the source became %1$d', '<ph id="1">%1$d</ph>'],
    ]);
  });

  test('placeholders: ICU {count} and plurals, {0}, {{var}}, as text or protected as code elements', () => {
    assert.deepEqual(found('You have {count} messages', 'Sie haben Nachrichten'), [
      [QA_CODES.placeholderMissing, 'Placeholder {count} of the source is missing', null],
    ]);
    assert.deepEqual(found('You have {count} messages', 'Sie haben {anzahl} Nachrichten'), [
      [QA_CODES.placeholderChanged, 'Placeholder {count} of the source became {anzahl}', '{anzahl}'],
    ]);
    assert.deepEqual(found('Open {0}', 'Öffne {0} in {1}'), [
      [QA_CODES.placeholderExtra, 'Placeholder {1} is not in the source', '{1}'],
    ]);
    assert.deepEqual(
      found('{n, plural, one {# file} other {# files}}', '{n, plural, one {# Datei} other {# Dateien}}'),
      [],
    );
    assert.deepEqual(
      found('{n, plural, one {# file} other {# files}}', '{count, plural, one {# Datei} other {# Dateien}}'),
      [
        [
          QA_CODES.placeholderChanged,
          'Placeholder {n, plural, …} of the source became {count, plural, …}',
          '{count, plural,',
        ],
      ],
    );
    // {{ name }} is {{name}}, as text or in the code element a filter protected it with.
    assert.deepEqual(found('Hello {{name}}!', 'Hallo {{ name }}!'), []);
    assert.deepEqual(found('Hello <ph id="1">{{name}}</ph>!', 'Hallo {{name}}!'), []);
    assert.deepEqual(found('Hello <ph id="1">{{name}}</ph>!', 'Hallo!'), [
      [QA_CODES.placeholderMissing, 'Placeholder {{name}} of the source is missing', null],
    ]);
  });

  test('placeholders: Python, Rails, shell and HTML entities; a narrower list of syntaxes checks only those', () => {
    assert.deepEqual(found('%(name)s has %(n)d files', '%(n)d Dateien hat %(name)s'), []);
    assert.deepEqual(found('%{count} files', '%{anzahl} Dateien'), [
      [QA_CODES.placeholderChanged, 'Placeholder %{count} of the source became %{anzahl}', '%{anzahl}'],
    ]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: ${HOME} is the shell placeholder here
    assert.deepEqual(found('Copy to ${HOME}', 'Nach $HOME kopieren'), []);
    assert.deepEqual(found('Save &amp; close', 'Speichern & schließen'), [
      [QA_CODES.placeholderMissing, 'Placeholder &amp; of the source is missing', null],
    ]);
    assert.deepEqual(
      found('Save &amp; close', 'Speichern & schließen', { ...EN_DE, placeholders: ['printf'] }),
      [],
    );
  });

  test('tag pairs: an empty pair around text the source encloses, and pairs out of order, are warnings', () => {
    const source = 'See <g id="1">Introduction</g>.';
    assert.deepEqual(found(source, 'Siehe <g id="1">Einleitung</g>.'), []);
    const empty = found(source, 'Siehe Einleitung<g id="1"></g>.');
    assert.deepEqual(empty, [
      [
        QA_CODES.tagPairEmpty,
        'Tag pair 1 is empty; in the source it encloses "Introduction"',
        '<g id="1"></g>',
      ],
    ]);
    assert.equal(checkSegment(source, 'Siehe Einleitung<g id="1"></g>.', EN_DE)[0].severity, 'warning');
    assert.deepEqual(found('<g id="1">A</g> and <g id="2">B</g>.', '<g id="2">B</g> und <g id="1">A</g>.'), [
      [QA_CODES.tagOrder, 'Tag pair 1 comes after pair 2 here, before it in the source', '<g id="1">A</g>'],
    ]);
    assert.deepEqual(found('<g id="1">A <g id="2">B</g></g> C.', '<g id="1">X</g> <g id="2">Y</g> Z.'), [
      [
        QA_CODES.tagOrder,
        'Tag pair 2 is nested otherwise than in the source (inside pair 1)',
        '<g id="2">Y</g>',
      ],
    ]);
    // bpt/ept pair by their i attribute.
    const bpt = 'Read <bpt i="1">&lt;b&gt;</bpt>this<ept i="1">&lt;/b&gt;</ept>.';
    assert.deepEqual(
      found(bpt, 'Lies das<bpt i="1">&lt;b&gt;</bpt><ept i="1">&lt;/b&gt;</ept>.').map(([code]) => code),
      [QA_CODES.tagPairEmpty],
    );
  });

  // The checks below were rewritten from expressions and pair-by-pair walks that took time in the square of a
  // long segment's length (a run of spaces, a long word, thousands of tags): what they find is unchanged.
  test('spaces, links and final marks after long runs: found where they are', () => {
    const spaces = ' '.repeat(50_000);
    const [trailing] = checkSegment('a b', `a${spaces}b${spaces}`, EN_DE);
    assert.equal(trailing.code, QA_CODES.trailingSpace);
    assert.deepEqual([trailing.start, trailing.end], [50_002, 100_002]);
    const word = 'x'.repeat(50_000);
    assert.deepEqual(codes(`${word} mail a.b+c@example.org.`, `${word} Mail.`, EN_DE), [
      QA_CODES.emailMissing,
    ]);
    const [missing] = checkSegment(`${word}@@ a@b.c@d.e, see http://x.org/a).`, 'Siehe.', EN_DE);
    assert.equal(missing.message, 'URL http://x.org/a of the source is missing or changed');
    assert.deepEqual(
      checkSegment('Write to a@b.c@d.e and f@g.', 'Schreiben.', EN_DE).map((i) => i.message),
      ['E-mail address a@b.c of the source is missing or changed'],
    );
    assert.deepEqual(codes(`Done${'")'.repeat(20_000)}.`, `Fertig${'")'.repeat(20_000)}`, EN_DE), [
      QA_CODES.finalPunctuation,
    ]);
  });

  test('tag pairs: an emptied pair quoted from its first letter, nesting read for crossing bpt/ept pairs', () => {
    const source = `<g id="1">${' '.repeat(1000)}Save\n\n  all   the files now, please, every one of them</g>`;
    const [empty] = checkSegment(source, '<g id="1"> </g>', EN_DE);
    assert.equal(empty.code, QA_CODES.tagPairEmpty);
    assert.equal(
      empty.message,
      'Tag pair 1 is empty; in the source it encloses "Save all the files now, please, every o…"',
    );
    // bpt 1 … bpt 2 … ept 1 … ept 2 cross; g sits inside pair 2 only.
    const crossing =
      '<bpt i="1">&lt;b&gt;</bpt>a<bpt i="2">&lt;i&gt;</bpt>b<ept i="1">&lt;/b&gt;</ept>c<g id="3">d</g><ept i="2">&lt;/i&gt;</ept>';
    assert.deepEqual(codes(crossing, crossing, EN_DE), [QA_CODES.sameAsSource]);
    const moved =
      '<bpt i="1">&lt;b&gt;</bpt>a<bpt i="2">&lt;i&gt;</bpt>b<ept i="1">&lt;/b&gt;</ept>c<ept i="2">&lt;/i&gt;</ept><g id="3">d</g>';
    assert.deepEqual(codes(crossing, moved, EN_DE), [QA_CODES.tagOrder, QA_CODES.sameAsSource]);
    // 10,000 nested pairs, each of them found inside the one around it as in the source.
    const nested = `${'<g id="1">a'.repeat(10_000)}${'</g>'.repeat(10_000)}`;
    assert.deepEqual(codes(nested, nested, EN_DE), [QA_CODES.sameAsSource]);
  });
});
