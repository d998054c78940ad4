import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import {
  MAX_ICU_NESTING,
  type PlaceholderSyntax,
  placeablesOf,
  placeholdersCorrespond,
  repairTarget,
} from './placeables.ts';

const hasMsgfmt = spawnSync('msgfmt', ['--version']).status === 0;
const ph = (id: number, code: string) =>
  `<ph id="${id}">${code.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</ph>`;
const keys = (tagged: string) =>
  placeablesOf(tagged).map((p) => [p.kind, p.syntax, p.key].filter(Boolean).join(' '));

describe('placeablesOf', () => {
  it('finds placeholders of every common syntax, numbers and tags, in order', () => {
    assert.deepEqual(keys('%d of %1$s, %.*s, %lu and %(name)s: 3 left'), [
      'placeholder printf %d',
      'placeholder printf %1$s',
      'placeholder printf %.*s',
      'placeholder printf %lu',
      'placeholder python %(name)s',
      'number 3',
    ]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${HOME} placeholder is the input here
    assert.deepEqual(keys('{0} {name} { n, number } {{count}} {{- html}} %{model} %<n>d ${HOME} $USER'), [
      'placeholder brace {0}',
      'placeholder brace {name}',
      'placeholder brace {n,number}',
      'placeholder i18next {{count}}',
      'placeholder i18next {{- html}}',
      'placeholder ruby %{model}',
      'placeholder ruby %<n>d',
      'placeholder shell $HOME',
      'placeholder shell $USER',
    ]);
    assert.deepEqual(keys('%@ and %1$@ (Objective-C), Save &amp; close&nbsp;now &#160; &#xA0;'), [
      'placeholder printf %@',
      'placeholder printf %1$@',
      'placeholder entity &amp;',
      'placeholder entity &nbsp;',
      'placeholder entity &#160;',
      'placeholder entity &#xA0;',
    ]);
    assert.deepEqual(keys('Click <g id="1">here</g><x id="2"/> or <b>there</b><br>'), [
      'tag <g id="1">',
      'tag </g>',
      'tag <x id="2"/>',
      'tag <b>',
      'tag </b>',
      'tag <br>',
    ]);
  });

  it('reads %% as a literal percent sign, and $t() as i18next nesting', () => {
    assert.deepEqual(keys('100%% of %s, 50%%s, %%%d'), [
      'number 100',
      'placeholder printf %s',
      'number 50',
      'placeholder printf %d',
    ]);
    assert.deepEqual(keys('%%{count} and $t(common.ok)'), ['placeholder brace {count}']);
  });

  it('gives a placeholder protected as a code the key of the same placeholder as text', () => {
    const tagged = `You have ${ph(1, '{{ count }}')} new, ${ph(2, '%{n}')} old`;
    const found = placeablesOf(tagged);
    assert.deepEqual(
      found.map((p) => [p.kind, p.syntax, p.key, p.text]),
      [
        ['placeholder', 'i18next', '{{count}}', ph(1, '{{ count }}')],
        ['placeholder', 'ruby', '%{n}', ph(2, '%{n}')],
      ],
    );
    for (const p of found) assert.equal(tagged.slice(p.start, p.end), p.text);
  });

  it('keeps a code that wraps more than a placeholder a tag (Android xliff:g, ICU plural joints)', () => {
    assert.deepEqual(keys(`Hi ${ph(1, '<xliff:g id="user">%1$s</xliff:g>')}!`), [
      `tag ${ph(1, '<xliff:g id="user">%1$s</xliff:g>')}`,
    ]);
    assert.deepEqual(keys(`${ph(1, '{n, plural, one {')}# file${ph(2, '}}')}`), [
      `tag ${ph(1, '{n, plural, one {')}`,
      `tag ${ph(2, '}}')}`,
    ]);
  });

  it('reads an ICU plural as its argument and the placeables of its branches, not its branch braces', () => {
    assert.deepEqual(keys('{n, plural, =0 {none} one {# file of {owner}} other {{n} files}} in {dir}'), [
      'placeholder brace {n,plural}',
      'placeholder brace {owner}',
      'placeholder brace {n}',
      'placeholder brace {dir}',
    ]);
  });

  it('reads plurals nested deeper than MAX_ICU_NESTING as one placeholder, however deep (never out of stack)', () => {
    const nested = (depth: number) => `${'{n, plural, one {'.repeat(depth)}%d${'}}'.repeat(depth)}`;
    // Within the bound every level is read: its head, then the %d of the innermost branch.
    const shallow = placeablesOf(nested(MAX_ICU_NESTING));
    assert.equal(shallow.length, MAX_ICU_NESTING + 1);
    assert.equal(shallow.at(-1)?.key, '%d');
    // 20,000 levels (a paragraph of a file is one segment): the heads down to the bound, then the plural
    // nested there whole, as its own placeholder; the old recursion ran out of stack here.
    const deep = nested(20_000);
    const found = placeablesOf(deep);
    assert.equal(found.length, MAX_ICU_NESTING + 1);
    const last = found.at(-1)!;
    assert.equal(last.kind, 'placeholder');
    assert.equal(last.start, MAX_ICU_NESTING * '{n, plural, one {'.length);
    assert.equal(last.end, deep.length - MAX_ICU_NESTING * 2);
    assert.equal(repairTarget(deep, 'x', deep)?.target, 'x');
  });

  it('reads numbers as the scorer does: wide digits as ASCII, one number per token, none inside words', () => {
    const found = placeablesOf('ファイルを３個、MP3 1.5 1,000');
    assert.deepEqual(
      found.map((p) => [p.key, p.text]),
      [
        ['3', '３'],
        ['1.5', '1.5'],
        ['1', '1'],
        ['000', '000'],
      ],
    );
  });
});

describe('repairTarget', () => {
  it('puts the source placeholder in the place of the match’s (issue 8: %d file from a %s match)', () => {
    assert.deepEqual(repairTarget('%s file', '%s-Datei', '%d file'), {
      target: '%d-Datei',
      repairs: [{ from: '%s', to: '%d', kind: 'placeholder' }],
    });
  });

  it('changes numbers: Delete 3 files → Delete 12 files, also written with wide digits in the target', () => {
    assert.deepEqual(repairTarget('Delete 3 files', '3 Dateien löschen', 'Delete 12 files'), {
      target: '12 Dateien löschen',
      repairs: [{ from: '3', to: '12', kind: 'number' }],
    });
    assert.equal(
      repairTarget('Delete 3 files', '３件のファイルを削除', 'Delete 12 files')?.target,
      '12件のファイルを削除',
    );
  });

  it('repairs CJK sources, where numbers sit between characters without spaces', () => {
    assert.deepEqual(repairTarget('删除3个文件', '3個のファイルを削除', '删除12个文件'), {
      target: '12個のファイルを削除',
      repairs: [{ from: '3', to: '12', kind: 'number' }],
    });
  });

  it('follows renumbered tags, and leaves tags that only moved in the source as the translator placed them', () => {
    assert.deepEqual(
      repairTarget(
        'Click <g id="1">here</g> to <x id="2"/>save',
        '<g id="1">Hier</g> klicken, um <x id="2"/>zu speichern',
        'Click <g id="3">here</g> to <x id="4"/>save',
      ),
      {
        target: '<g id="3">Hier</g> klicken, um <x id="4"/>zu speichern',
        repairs: [
          { from: '<g id="1">', to: '<g id="3">', kind: 'tag' },
          { from: '<x id="2"/>', to: '<x id="4"/>', kind: 'tag' },
        ],
      },
    );
    const moved = repairTarget(
      '<g id="1">Save</g> the file',
      '<g id="1">Datei</g> speichern',
      'Save <g id="1">the file</g>',
    );
    assert.deepEqual(moved, { target: '<g id="1">Datei</g> speichern', repairs: [] });
  });

  it('swaps numbered placeholders all at once', () => {
    assert.equal(
      repairTarget('Copy %1$s to %2$s', 'Kopiere %1$s nach %2$s', 'Copy %2$s to %1$s')?.target,
      'Kopiere %2$s nach %1$s',
    );
  });

  it('writes the source’s spelling of the placeable: a tag where the document protects one', () => {
    const json = `You have ${ph(1, '{{count}}')} unread messages`;
    assert.equal(
      repairTarget('You have %s unread messages', 'Sie haben %s ungelesene Nachrichten', json)?.target,
      `Sie haben ${ph(1, '{{count}}')} ungelesene Nachrichten`,
    );
    const android = `Welcome back, ${ph(1, '<xliff:g id="user">%1$s</xliff:g>')}!`;
    assert.equal(
      repairTarget('Welcome back, %1$s!', 'Willkommen zurück, %1$s!', android)?.target,
      `Willkommen zurück, ${ph(1, '<xliff:g id="user">%1$s</xliff:g>')}!`,
    );
  });

  it('lets a slot change kind only when the words around it are the same (case and spaces aside)', () => {
    assert.equal(
      repairTarget('Delete 3 files', '3 Dateien löschen', 'delete  %d Files')?.target,
      '%d Dateien löschen',
    );
    assert.equal(repairTarget('Delete 3 old files', '3 alte Dateien löschen', 'Remove %d new files'), null);
    assert.equal(
      repairTarget('Delete 3 old files', '3 alte Dateien löschen', 'Remove 12 new files')?.target,
      '12 alte Dateien löschen',
    );
    assert.equal(repairTarget('<g id="1">a</g> b', '<g id="1">A</g> B', '<x id="1"/>a<x id="2"/> b'), null);
  });

  it('answers the match unchanged when the placeables are the same', () => {
    assert.deepEqual(repairTarget('Open %s now', 'Jetzt %s öffnen', 'Open %s today'), {
      target: 'Jetzt %s öffnen',
      repairs: [],
    });
  });

  it('never guesses: different counts, an ambiguous pairing, or a target that lost or doubled a placeable', () => {
    assert.equal(repairTarget('%s file', '%s-Datei', '%s file in %s'), null);
    assert.equal(repairTarget('%s and %s', '%s und %s', '%s and %d'), null);
    assert.equal(repairTarget('%s file', 'Datei', '%d file'), null);
    assert.equal(repairTarget('Page 3', 'Seite 3 (3)', 'Page 4'), null);
  });
});

// What `msgfmt -c` says of a msgstr for its msgid, by flag: the table placeholdersCorrespond must agree with.
const FLAG_SYNTAXES: Record<string, PlaceholderSyntax[]> = {
  'c-format': ['printf'],
  'python-format': ['printf', 'python'],
  'python-brace-format': ['brace'],
  'sh-format': ['shell'],
};
const MSGFMT_CASES: [flag: string, msgid: string, msgstr: string, accepted: boolean][] = [
  ['c-format', '%d file', '%s-Datei', false],
  ['c-format', '%d file', '%d-Datei', true],
  ['c-format', '%d file', '%i Datei', true],
  ['c-format', '%lu files', '%u Dateien', false],
  ['c-format', '%s and %s', '%2$s und %1$s', true],
  ['c-format', '%1$s and %2$s', '%1$s, %1$s und %2$s', true],
  ['c-format', '%s and %d', '%1$s und %d', false],
  ['c-format', '%1$s and %2$s', 'nur %2$s', false],
  ['c-format', '%s and %d', '%d und %s', false],
  ['c-format', '%.*s!', '%.*s!', true],
  ['c-format', '%.*s!', '%s!', false],
  ['c-format', '%5d items', '%d Elemente', true],
  ['c-format', '%x!', '%d!', false],
  ['c-format', '%e!', '%g!', true],
  ['c-format', '%S!', '%ls!', true],
  ['c-format', '100%% of %s', '%s zu 100%%', true],
  ['c-format', '%s file', '%%s Datei', false],
  ['c-format', 'a %s', 'b', false],
  ['c-format', '%s: %s', '%s: %s: %s', false],
  ['python-format', '%(n)s of %(m)d', '%(m)d von %(n)s', true],
  ['python-format', '%(n)s of %(m)d', '%(m)d von %(n)s %(n)s', true],
  ['python-format', '%(n)s of %(m)d', '%(m)d von', false],
  ['python-format', '%(n)s of %(m)d', '%(m)s von %(n)s', false],
  ['python-format', '%(n)s', '%s', false],
  ['python-brace-format', '{n} of {m}', '{m} von {n}', true],
  ['python-brace-format', '{n} of {m}', '{m} von', false],
  ['python-brace-format', '{n} of {m}', '{m} von {x}', false],
  ['python-brace-format', '{0} of {1}', '{1} von {0} {0}', true],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell's ${USER}, not a template
  ['sh-format', '$HOME is ${USER}', '${USER} hat $HOME', true],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell's ${USER}, not a template
  ['sh-format', '$HOME is ${USER}', '${USER} hat', false],
  ['sh-format', '$HOME', '$HOMER', false],
];

const HEADER =
  'msgid ""\nmsgstr ""\n"Project-Id-Version: t\\n"\n"PO-Revision-Date: 2024-01-01 00:00+0000\\n"\n' +
  '"Last-Translator: t\\n"\n"Language-Team: t\\n"\n"Language: de\\n"\n"MIME-Version: 1.0\\n"\n' +
  '"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n' +
  '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n';

function msgfmtAccepts(entry: string): boolean {
  return spawnSync('msgfmt', ['-c', '-o', '/dev/null', '-'], { input: HEADER + entry }).status === 0;
}

describe('placeholdersCorrespond', () => {
  it('agrees with msgfmt -c on printf, python, brace and shell formats', () => {
    for (const [flag, msgid, msgstr, accepted] of MSGFMT_CASES) {
      const row = `${flag}: ${msgid} → ${msgstr}`;
      assert.equal(placeholdersCorrespond(msgid, msgstr, FLAG_SYNTAXES[flag]), accepted, row);
      if (hasMsgfmt) {
        const entry = `#, ${flag}\nmsgid "${msgid}"\nmsgstr "${msgstr}"\n`;
        assert.equal(msgfmtAccepts(entry), accepted, `msgfmt on ${row}`);
      }
    }
  });

  it('lets a plural form for a single n leave arguments out, as msgfmt does, but not change them', () => {
    const cases: [msgidPlural: string, one: string, accepted: boolean][] = [
      ['%d files', 'eine Datei', true],
      ['%d files', '%d Datei', true],
      ['%d files', '%s Datei', false],
      ['%d files in %s', 'eine Datei in %s', false],
      ['%d files in %s', 'eine Datei in %2$s', false],
      ['%s: %d files', '%s: eine Datei', true],
    ];
    for (const [msgidPlural, one, accepted] of cases) {
      assert.equal(
        placeholdersCorrespond(msgidPlural, one, ['printf'], { allowMissing: true }),
        accepted,
        one,
      );
      if (hasMsgfmt) {
        const entry =
          `#, c-format\nmsgid "${msgidPlural}"\nmsgid_plural "${msgidPlural}"\n` +
          `msgstr[0] "${one}"\nmsgstr[1] "${msgidPlural}"\n`;
        assert.equal(msgfmtAccepts(entry), accepted, `msgfmt on ${one}`);
      }
    }
    assert.equal(placeholdersCorrespond('%d files', 'Dateien', ['printf']), false);
  });

  it('compares only the syntaxes asked for, and finds placeholders inside codes', () => {
    const json = `You have ${ph(1, '{{count}}')} messages`;
    assert.equal(placeholdersCorrespond(json, 'Sie haben {{count}} Nachrichten', ['i18next']), true);
    assert.equal(placeholdersCorrespond(json, 'Sie haben %s Nachrichten', ['i18next']), false);
    assert.equal(placeholdersCorrespond('%Y-%m-%d %{count}', '%d.%m.%Y %{count}', ['ruby']), true);
    assert.equal(placeholdersCorrespond('%{count} items', '%s Elemente', ['ruby']), false);
    const android = `Hi ${ph(1, '<xliff:g id="user">%1$s</xliff:g>')}, %2$d new`;
    assert.equal(
      placeholdersCorrespond(android, `Hallo ${ph(1, '<xliff:g>%1$s</xliff:g>')}, %2$d neu`),
      true,
    );
    assert.equal(placeholdersCorrespond(android, 'Hallo %s, %d neu'), true);
    assert.equal(placeholdersCorrespond(android, 'Hallo %1$d, %2$d neu'), false);
    assert.equal(placeholdersCorrespond('50% off', '50 % Rabatt'), true);
  });

  it('compares ICU arguments by name, plural heads included, whether cut into codes or not', () => {
    const json =
      `${ph(1, '{count, plural, one {')}${ph(2, '#')} message${ph(3, '} other {')}` +
      `${ph(4, '#')} messages${ph(5, '}}')} from ${ph(6, '{sender}')}`;
    const german = '{count, plural, one {# Nachricht} other {# Nachrichten}} von {sender}';
    assert.equal(placeholdersCorrespond(json, german, ['brace']), true);
    assert.equal(placeholdersCorrespond(json, german.replace('{sender}', '{from}'), ['brace']), false);
    assert.equal(placeholdersCorrespond(json, german.replace('count', 'n'), ['brace']), false);
  });
});
