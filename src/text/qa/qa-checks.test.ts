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
});
