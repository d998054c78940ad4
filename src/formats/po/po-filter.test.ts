import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { po as gettextPo } from 'gettext-parser';
import { FormatError } from '../../errors.ts';
import { repairTarget } from '../../text/placeables.ts';
import { poFilter } from './po-filter.ts';

const fixture = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url));
const de = { srclang: 'en', trglang: 'de' };
const hasMsgfmt = spawnSync('msgfmt', ['--version']).status === 0;

/** Translations a person confirmed, as the export gives them. */
const confirmed = (texts: readonly (string | null)[]) =>
  texts.map((text) => (text === null ? null : { text, confirmed: true }));

/** msgfmt's verdict on a catalog: '' when it passes --check, else its complaints. */
function msgfmtCheck(po: Buffer): string {
  const run = spawnSync('msgfmt', ['--check', '-o', '/dev/null', '-'], { input: po });
  return run.status === 0 ? '' : run.stderr.toString();
}

async function rejectsAt(input: string, message: string, line: number, column: number) {
  await assert.rejects(poFilter.extract(Buffer.from(input), de), (e: unknown) => {
    assert.ok(e instanceof FormatError, String(e));
    assert.equal(e.message, `${message} at line ${line}, column ${column}`);
    return true;
  });
}

// Real German translations of the fixture's messages, from Debian's catalogs (the corpus of test/fixtures/corpus).
const GERMAN = [
  null,
  '_Abbrechen',
  'Datei »%s« konnte nicht geöffnet werden: %s',
  null,
  null,
  '(noch %d Minute zum Entsperren)',
  '(noch %d Minuten zum Entsperren)',
  '%s: Privilegien können nicht entfernt werden: %s', // the trailing \n is restored by the merge
  '  ON_ERROR_STOP\n    Skriptausführung bei Fehler beenden\n',
  'Animation »%s« konnte nicht geladen werden: Grund ist unbekannt, vermutlich eine defekte Animationsdatei',
  null,
];

describe('poFilter extract', () => {
  it('gives one unit per message and per plural form, with context, notes and existing targets', async () => {
    const refs = (r: string) => `References: ${r}`;
    assert.deepEqual(await poFilter.extract(fixture('linux-pam-de.po'), de), [
      {
        source: '_Open',
        segmentable: false,
        context: 'Stock label',
        notes: ['TRANSLATORS: button in the file chooser', refs('gtk/gtkfilechooserdialog.c:512')],
        target: 'Ö_ffnen',
        state: 'translated',
      },
      {
        source: '_Cancel',
        segmentable: true,
        context: 'Stock label',
        notes: [refs('gtk/gtkfilechooserdialog.c:514')],
      },
      {
        source: 'Failed to open file “%s”: %s',
        segmentable: true,
        notes: ['Keep the curly quotes.', refs('gdk-pixbuf/io-png.c:301'), 'Flags: c-format'],
      },
      {
        source: 'Warning: your password will expire in %d day.',
        segmentable: false,
        context: 'msgstr[0]',
        notes: [
          refs('modules/pam_unix/pam_unix_acct.c:250'),
          'Flags: c-format',
          'Plural form 0 of 2 (n = 1)',
        ],
        target: 'Warnung: Ihr Passwort läuft in %d Tag ab.',
        state: 'needs-review-translation',
      },
      {
        source: 'Warning: your password will expire in %d days.',
        segmentable: false,
        context: 'msgstr[1]',
        notes: [
          refs('modules/pam_unix/pam_unix_acct.c:250'),
          'Flags: c-format',
          'Plural form 1 of 2 (n = 0, 2, 3, 4…)',
        ],
        target: 'Warnung: Ihr Passwort läuft in %d Tagen ab.',
        state: 'needs-review-translation',
      },
      {
        source: '(%d minute left to unlock)',
        segmentable: true,
        context: 'msgstr[0]',
        notes: [refs('modules/pam_faillock/main.c:102'), 'Flags: c-format', 'Plural form 0 of 2 (n = 1)'],
      },
      {
        source: '(%d minutes left to unlock)',
        segmentable: true,
        context: 'msgstr[1]',
        notes: [
          refs('modules/pam_faillock/main.c:102'),
          'Flags: c-format',
          'Plural form 1 of 2 (n = 0, 2, 3, 4…)',
        ],
      },
      {
        source: '%s: Cannot drop privileges: %s\n',
        segmentable: true,
        notes: [refs('sys-utils/setpriv.c:847'), 'Flags: c-format'],
      },
      {
        source: '  ON_ERROR_STOP\n    stop batch execution after error\n',
        segmentable: true,
        notes: [refs('src/bin/psql/help.c:330')],
      },
      {
        source: 'Failed to load animation “%s”: reason not known, probably a corrupt animation file',
        segmentable: true,
        notes: [refs('gdk-pixbuf/gdk-pixbuf-animation.c:220'), 'Flags: c-format'],
      },
      {
        source: '%1$s on %2$s',
        segmentable: false,
        notes: ['Flags: c-format'],
        target: '%1$s, %2$s',
        state: 'translated',
      },
    ]);
  });

  it('gives a template as many plural units as the target language has forms', async () => {
    const pot = fixture('tessera.pot');
    const sources = async (trglang: string) =>
      (await poFilter.extract(pot, { srclang: 'en', trglang })).map((u) => [u.context ?? '', u.source]);
    assert.deepEqual(await sources('ru'), [
      ['', 'Import a TMX file into a memory.'],
      ['msgstr[0]', '%d segment imported'],
      ['msgstr[1]', '%d segments imported'],
      ['msgstr[2]', '%d segments imported'],
      ['menu', '_File'],
    ]);
    // One form serves every count, so it is translated from the plural.
    assert.deepEqual(await sources('ja'), [
      ['', 'Import a TMX file into a memory.'],
      ['msgstr[0]', '%d segments imported'],
      ['menu', '_File'],
    ]);
  });

  it('does not take translations into another language as targets', async () => {
    const units = await poFilter.extract(fixture('linux-pam-de.po'), { srclang: 'en', trglang: 'fr' });
    assert.equal(units[0].target, undefined);
    assert.equal(units[0].segmentable, true);
  });

  it('protects text that spells an inline element', async () => {
    const po = 'msgid "Water is H<sub>2</sub>O"\nmsgstr ""\n';
    const [unit] = await poFilter.extract(Buffer.from(po), de);
    assert.equal(unit.source, 'Water is H<ph id="1">&lt;sub&gt;</ph>2<ph id="2">&lt;/sub&gt;</ph>O');
    const merged = await poFilter.merge(
      Buffer.from(po),
      confirmed([unit.source.replace('Water is', 'Wasser ist')]),
      de,
    );
    assert.equal(
      gettextPo.parse(merged).translations['']['Water is H<sub>2</sub>O'].msgstr[0],
      'Wasser ist H<sub>2</sub>O',
    );
  });

  it('reads a Latin-1 catalog by its charset', async () => {
    const po =
      'msgid ""\nmsgstr "Content-Type: text/plain; charset=ISO-8859-1\\n"\n\nmsgid "Open"\nmsgstr "Öffnen"\n';
    const units = await poFilter.extract(Buffer.from(po, 'latin1'), de);
    assert.deepEqual(units, [{ source: 'Open', segmentable: false, target: 'Öffnen', state: 'translated' }]);
  });

  it('rejects malformed catalogs with line and column', async () => {
    await rejectsAt('msgid "a\nmsgstr ""\n', 'unterminated string', 1, 7);
    await rejectsAt('msgid "a"\nmsgstr "b" x\n', 'text after the closing quote', 2, 12);
    await rejectsAt('msgid "a"\nmsgstring "b"\n', 'unexpected text "msgstring "b"" in PO file', 2, 1);
    await rejectsAt('msgid "a\\q"\nmsgstr ""\n', 'invalid escape sequence "\\q"', 1, 9);
    await rejectsAt('msgid "a"\nmsgid_plural "as"\nmsgstr[1] ""\n', 'msgstr must be msgstr[0]', 3, 1);
    await rejectsAt('  "orphan"\n', 'string continuation without a keyword before it', 1, 3);
    await rejectsAt(
      'msgid "a"\nmsgstr ""\n\nmsgid "a"\nmsgstr ""\n',
      'duplicate message definition (first defined at line 1)',
      4,
      1,
    );
    await rejectsAt('msgid "a"\n\nmsgstr ""\n', 'PO entry without msgstr', 1, 1);
  });
});

describe('poFilter merge', () => {
  it('writes translations that gettext-parser and msgfmt --check accept', {
    skip: !hasMsgfmt && 'no msgfmt',
  }, async () => {
    const original = fixture('linux-pam-de.po');
    const merged = await poFilter.merge(original, confirmed(GERMAN), de);
    assert.equal(msgfmtCheck(merged), '');
    const parsed = gettextPo.parse(merged, { validation: true });
    const get = (msgid: string, ctx = '') => parsed.translations[ctx][msgid].msgstr;
    assert.deepEqual(get('_Cancel', 'Stock label'), ['_Abbrechen']);
    assert.deepEqual(get('_Open', 'Stock label'), ['Ö_ffnen']);
    assert.deepEqual(get('(%d minute left to unlock)'), [
      '(noch %d Minute zum Entsperren)',
      '(noch %d Minuten zum Entsperren)',
    ]);
    assert.deepEqual(get('%s: Cannot drop privileges: %s\n'), [
      '%s: Privilegien können nicht entfernt werden: %s\n',
    ]);
    assert.equal(
      get('Failed to load animation “%s”: reason not known, probably a corrupt animation file')[0],
      GERMAN[9],
    );
    const text = merged.toString('utf8');
    assert.ok(
      text.includes(
        'msgstr ""\n"  ON_ERROR_STOP\\n"\n"    Skriptausführung bei Fehler beenden\\n"\n\n#: gdk-pixbuf/gdk-pixbuf-animation.c:220',
      ),
    );
    assert.ok(
      text.includes(
        'msgstr ""\n"Animation »%s« konnte nicht geladen werden: Grund ist unbekannt, vermutlich "\n"eine defekte Animationsdatei"\n',
      ),
    );
    // Everything before the first translated msgstr keeps its bytes, the header included (it suits German).
    const untouched = original.toString('utf8').indexOf('msgstr ""\n\n# Keep');
    assert.equal(text.slice(0, untouched), original.toString('utf8').slice(0, untouched));
  });

  it('drops the fuzzy flag of a message it translates, unless a form it keeps from the file was fuzzy', async () => {
    const flagOf = (po: string) =>
      gettextPo.parse(po).translations['']['Warning: your password will expire in %d day.'].comments?.flag;
    const translations: (string | null)[] = GERMAN.map(() => null);
    translations[3] = 'Warnung: Ihr Passwort läuft in %d Tag ab.';
    translations[4] = 'Warnung: Ihr Passwort läuft in %d Tagen ab!';
    const merged = (await poFilter.merge(fixture('linux-pam-de.po'), confirmed(translations), de)).toString(
      'utf8',
    );
    assert.ok(
      merged.includes('#: modules/pam_unix/pam_unix_acct.c:250\n#, c-format\nmsgid "Warning'),
      merged,
    );
    assert.equal(flagOf(merged), 'c-format');
    translations[4] = null;
    const half = (await poFilter.merge(fixture('linux-pam-de.po'), confirmed(translations), de)).toString(
      'utf8',
    );
    assert.equal(flagOf(half), 'fuzzy, c-format');
  });

  it('drops the fuzzy flag of the first message when the header it adds goes in front of it', async () => {
    const po = '#, fuzzy\nmsgid "Hello"\nmsgstr "Hallo"\n\nmsgid "Bye"\nmsgstr ""\n';
    const merged = (await poFilter.merge(Buffer.from(po), confirmed(['Hallo!', null]), de)).toString('utf8');
    assert.ok(merged.startsWith('msgid ""\nmsgstr ""\n"Language: de\\n"\n'));
    assert.ok(merged.endsWith('\n\nmsgid "Hello"\nmsgstr "Hallo!"\n\nmsgid "Bye"\nmsgstr ""\n'));
    assert.ok(!merged.includes('fuzzy'));
  });

  it('turns a template into a catalog of the target language', {
    skip: !hasMsgfmt && 'no msgfmt',
  }, async () => {
    const pot = fixture('tessera.pot');
    const ru = { srclang: 'en', trglang: 'ru' };
    const merged = await poFilter.merge(
      pot,
      confirmed([
        'Импортировать файл TMX в память.',
        '%d сегмент импортирован',
        '%d сегмента импортировано',
        '%d сегментов импортировано',
        '_Файл',
      ]),
      ru,
    );
    assert.equal(msgfmtCheck(merged), '');
    const parsed = gettextPo.parse(merged, { validation: true });
    assert.equal(parsed.headers?.Language, 'ru');
    assert.equal(
      parsed.headers?.['Plural-Forms'],
      'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
    );
    assert.equal(parsed.headers?.['Content-Type'], 'text/plain; charset=UTF-8');
    assert.deepEqual(parsed.translations['']['%d segment imported'].msgstr, [
      '%d сегмент импортирован',
      '%d сегмента импортировано',
      '%d сегментов импортировано',
    ]);
    assert.deepEqual(parsed.translations.menu._File.msgstr, ['_Файл']);
    assert.ok(!merged.toString('utf8').includes('#, fuzzy'), 'the filled-in header is no longer fuzzy');

    const ja = await poFilter.merge(pot, confirmed([null, '%d 個のセグメントをインポートしました', null]), {
      srclang: 'en',
      trglang: 'ja',
    });
    assert.equal(msgfmtCheck(ja), '');
    assert.ok(ja.toString('utf8').includes('msgstr[0] "%d 個のセグメントをインポートしました"\n\n'));
    assert.equal(gettextPo.parse(ja).headers?.['Plural-Forms'], 'nplurals=1; plural=0;');
  });

  it('escapes quotes, backslashes and tabs, and restores msgid line-break edges', async () => {
    const po = 'msgid "Path:\\n"\nmsgstr ""\n\nmsgid "Say"\nmsgstr ""\n';
    const merged = await poFilter.merge(Buffer.from(po), confirmed(['Pfad:', 'Sag "C:\\temp"\tjetzt\n']), de);
    const parsed = gettextPo.parse(merged);
    assert.deepEqual(parsed.translations['']['Path:\n'].msgstr, ['Pfad:\n']);
    assert.deepEqual(parsed.translations[''].Say.msgstr, ['Sag "C:\\temp"\tjetzt']);
    assert.ok(merged.toString('utf8').includes('msgstr "Sag \\"C:\\\\temp\\"\\tjetzt"'));
  });

  it('adds a header to a catalog without one, and re-encodes Latin-1 as UTF-8', {
    skip: !hasMsgfmt && 'no msgfmt',
  }, async () => {
    const bare = await poFilter.merge(
      Buffer.from('msgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n'),
      confirmed(['%d Datei', '%d Dateien']),
      de,
    );
    assert.equal(msgfmtCheck(bare), '');
    assert.ok(
      bare
        .toString('utf8')
        .startsWith(
          'msgid ""\nmsgstr ""\n"Language: de\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n',
        ),
    );

    const latin1 = Buffer.from(
      'msgid ""\nmsgstr "Content-Type: text/plain; charset=ISO-8859-1\\n"\n\nmsgid "Open"\nmsgstr ""\n',
      'latin1',
    );
    const merged = await poFilter.merge(latin1, confirmed(['Öffnen']), de);
    assert.equal(msgfmtCheck(merged), '');
    assert.deepEqual(gettextPo.parse(merged).translations[''].Open.msgstr, ['Öffnen']);
    assert.ok(merged.toString('utf8').includes('"Content-Type: text/plain; charset=UTF-8\\n"'));
  });

  it('handles entries without blank lines between them, obsolete ones among them', async () => {
    const po =
      'msgid ""\nmsgstr "Language: de_DE\\n"\nmsgctxt "a"\nmsgid "One"\nmsgstr ""\nmsgid "Two"\nmsgstr ""\n' +
      '# comment\nmsgid "Three"\nmsgstr ""\n#~ msgid "Old"\n#~ msgstr "Alt"\nmsgid "Four"\nmsgstr ""\n';
    const units = await poFilter.extract(Buffer.from(po), de);
    assert.deepEqual(
      units.map((u) => [u.context, u.source, u.notes]),
      [
        ['a', 'One', undefined],
        [undefined, 'Two', undefined],
        [undefined, 'Three', ['comment']],
        [undefined, 'Four', undefined],
      ],
    );
    const merged = (
      await poFilter.merge(Buffer.from(po), confirmed(['Eins', null, 'Drei', 'Vier']), de)
    ).toString('utf8');
    assert.equal(
      merged,
      'msgid ""\nmsgstr ""\n"Language: de_DE\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n' +
        '"Content-Transfer-Encoding: 8bit\\n"\nmsgctxt "a"\nmsgid "One"\nmsgstr "Eins"\nmsgid "Two"\nmsgstr ""\n' +
        '# comment\nmsgid "Three"\nmsgstr "Drei"\n#~ msgid "Old"\n#~ msgstr "Alt"\nmsgid "Four"\nmsgstr "Vier"\n',
    );
    if (hasMsgfmt) assert.equal(msgfmtCheck(Buffer.from(merged)), '');
  });

  it('writes a plural translation of any shape back as the catalog needs it', async () => {
    const translations: (string | null)[] = GERMAN.map(() => null);
    translations[6] = '(noch %d Minuten zum Entsperren)';
    const merged = (await poFilter.merge(fixture('linux-pam-de.po'), confirmed(translations), de)).toString(
      'utf8',
    );
    assert.ok(merged.includes('msgstr[0] ""\nmsgstr[1] "(noch %d Minuten zum Entsperren)"\n'));
  });
});

describe('poFilter merge of pre-translated drafts', () => {
  const template =
    '#: src/files.c:10\n#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n\n' +
    '#, c-format\nmsgid "Delete %lu files?"\nmsgstr ""\n\n' +
    '#, c-format\nmsgid "Copied %s to %s"\nmsgstr ""\n\n' +
    '#, python-format\nmsgid "%(count)d new messages"\nmsgstr ""\n\n' +
    '#: src/main.c:4\nmsgid "Saved %s"\nmsgstr ""\n\n' +
    '#: src/main.c:5\n#| msgid "Open"\nmsgid "Open…"\nmsgstr ""\n';
  /** A memory match written the way pre-translation writes it: repaired where repairTarget can. */
  const draft = (matchSource: string, matchTarget: string, source: string) => ({
    text: repairTarget(matchSource, matchTarget, source)?.target ?? matchTarget,
    confirmed: false,
  });
  const translations = [
    draft('%s file', '%s-Datei', '%d file'),
    draft('%s files', '%s Dateien', '%d files'),
    draft('Delete %d files?', '%d Dateien löschen?', 'Delete %lu files?'),
    // Different placeholder counts: no repair, and the draft does not run.
    draft('Copied %s', '%s kopiert', 'Copied %s to %s'),
    { text: '%(count)d neue Nachrichten', confirmed: true },
    // A translator's slip in a message without flags whose msgid still goes through printf.
    { text: '%d gespeichert', confirmed: true },
    draft('Open', 'Öffnen', 'Open…'),
  ];

  it('writes drafts fuzzy with repaired placeholders, what would not run fuzzy with a comment, and passes msgfmt -c', {
    skip: !hasMsgfmt && 'no msgfmt',
  }, async () => {
    const merged = (await poFilter.merge(Buffer.from(template), translations, de)).toString('utf8');
    assert.ok(
      merged.includes(
        '#: src/files.c:10\n#, fuzzy, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\n' +
          'msgstr[0] "%d-Datei"\nmsgstr[1] "%d Dateien"\n',
      ),
      merged,
    );
    assert.ok(
      merged.includes('#, fuzzy, c-format\nmsgid "Delete %lu files?"\nmsgstr "%lu Dateien löschen?"\n'),
    );
    // What would not run is in the file, fuzzy, with a translator comment naming the problem.
    assert.ok(
      merged.includes(
        '# Tessera: fuzzy, its placeholders would not run: Placeholder %s of the source is missing\n' +
          '#, fuzzy, c-format\nmsgid "Copied %s to %s"\nmsgstr "%s kopiert"\n',
      ),
      merged,
    );
    assert.ok(merged.includes('#, python-format\nmsgid "%(count)d new messages"\nmsgstr "%(count)d neue'));
    // Confirmed, but its %d for the msgid's %s would crash printf: demoted to fuzzy, never dropped.
    assert.ok(
      merged.includes(
        '# Tessera: fuzzy, its placeholders would not run: Placeholder %s of the source became %d\n' +
          '#: src/main.c:4\n#, fuzzy\nmsgid "Saved %s"\nmsgstr "%d gespeichert"\n',
      ),
      merged,
    );
    assert.ok(
      merged.includes('#: src/main.c:5\n#, fuzzy\n#| msgid "Open"\nmsgid "Open…"\nmsgstr "Öffnen"\n'),
    );

    assert.equal(msgfmtCheck(Buffer.from(merged)), '');
    // msgfmt leaves the fuzzy messages out: only the confirmed Python one is compiled.
    const stats = spawnSync('msgfmt', ['-c', '--statistics', '-o', '/dev/null', '-'], { input: merged });
    assert.match(stats.stderr.toString(), /1 translated message, 5 fuzzy translations/);
    // A build with --use-fuzzy compiles drafts: it refuses the one whose arguments would not run, which is
    // what its fuzzy mark and comment say.
    const withDrafts = spawnSync('msgfmt', ['-c', '--use-fuzzy', '-o', '/dev/null', '-'], { input: merged });
    assert.match(
      withDrafts.stderr.toString(),
      /number of format specifications in 'msgid' and 'msgstr' does not match/,
    );
    // What the merge wrote before: the unrepaired match, not marked fuzzy.
    const before = merged.replace('#, fuzzy, c-format\nmsgid "%d file"', '#, c-format\nmsgid "%d file"');
    assert.match(
      msgfmtCheck(Buffer.from(before.replace('"%d-Datei"', '"%s-Datei"'))),
      /format specifications in 'msgid_plural' and 'msgstr\[0\]' for argument 1 are not the same/,
    );
  });

  it('names the forms whose arguments would not run: the messages merge writes fuzzy with a comment', async () => {
    assert.equal(poFilter.placeholders?.mismatch, 'fuzzy');
    assert.deepEqual(await poFilter.placeholders?.mismatches(Buffer.from(template), translations, de), [
      { unit: 3, problem: 'Placeholder %s of the source is missing' },
      { unit: 5, problem: 'Placeholder %s of the source became %d' },
    ]);
  });

  it('checks every plural form against msgid_plural, letting a form for one n leave the count out', async () => {
    const po = '#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n';
    const merge = async (trglang: string, forms: string[]) =>
      (await poFilter.merge(Buffer.from(po), confirmed(forms), { srclang: 'en', trglang })).toString('utf8');
    assert.ok((await merge('de', ['eine Datei', '%d Dateien'])).includes('msgstr[0] "eine Datei"\n'));
    // Russian form 0 serves 1, 21, 31…: it needs the count; the message is written fuzzy, saying so.
    const ru = await merge('ru', ['файл', '%d файла', '%d файлов']);
    assert.ok(
      ru.endsWith(
        '# Tessera: fuzzy, its placeholders would not run: msgstr[0]: Placeholder %d of the source is missing\n' +
          '#, fuzzy, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\n' +
          'msgstr[0] "файл"\nmsgstr[1] "%d файла"\nmsgstr[2] "%d файлов"\n',
      ),
      ru,
    );
    if (hasMsgfmt) assert.equal(msgfmtCheck(Buffer.from(ru)), '');
  });

  it('marks a message fuzzy when a plural form is left empty, so that msgfmt does not compile half of it', {
    skip: !hasMsgfmt && 'no msgfmt',
  }, async () => {
    const po = '#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n';
    const merged = await poFilter.merge(Buffer.from(po), confirmed(['%d Datei', null]), de);
    assert.ok(merged.toString('utf8').includes('#, fuzzy, c-format\n'));
    assert.equal(msgfmtCheck(merged), '');
  });

  it('writes the translator comment before the fuzzy flag of a message that had neither', {
    skip: !hasMsgfmt && 'no msgfmt',
  }, async () => {
    const catalog =
      'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Delete %s?"\nmsgstr ""\n';
    const merged = (
      await poFilter.merge(Buffer.from(catalog), [{ text: 'Löschen?', confirmed: true }], de)
    ).toString('utf8');
    assert.ok(
      merged.includes(
        '\n# Tessera: fuzzy, its placeholders would not run: Placeholder %s of the source is missing\n' +
          '#, fuzzy\nmsgid "Delete %s?"\nmsgstr "Löschen?"\n',
      ),
      merged,
    );
    assert.equal(msgfmtCheck(Buffer.from(merged)), '');
  });

  it('puts the fuzzy line of a catalog without a header after the header it adds', async () => {
    const po = 'msgid "Hello"\nmsgstr ""\n';
    const merged = await poFilter.merge(Buffer.from(po), [{ text: 'Hallo', confirmed: false }], de);
    assert.ok(merged.toString('utf8').endsWith('\n\n#, fuzzy\nmsgid "Hello"\nmsgstr "Hallo"\n'));
    assert.equal(gettextPo.parse(merged).translations[''].Hello.comments?.flag, 'fuzzy');
  });
});
