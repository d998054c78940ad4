import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { FormatError } from '../../errors.ts';
import { repairTarget } from '../../text/placeables.ts';
import { jsonFilter } from './json-filter.ts';

const fixture = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url));
const options = { srclang: 'en', trglang: 'de' };
const ph = (id: number, code: string) =>
  `<ph id="${id}">${code.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</ph>`;

/** Translations a person confirmed, as the export gives them. */
const confirmed = (texts: readonly (string | null)[]) =>
  texts.map((text) => (text === null ? null : { text, confirmed: true }));

async function rejectsAt(input: string, message: string, line: number, column: number) {
  await assert.rejects(jsonFilter.extract(Buffer.from(input), options), (e: unknown) => {
    assert.ok(e instanceof FormatError, String(e));
    assert.equal(e.message, `JSON: ${message} at line ${line}, column ${column}`);
    return true;
  });
}

describe('jsonFilter', () => {
  it('extracts every non-empty string with its key path, placeholders as tags', async () => {
    assert.deepEqual(await jsonFilter.extract(fixture('en.json'), options), [
      { source: 'Tessera', context: 'app.title', segmentable: true },
      {
        source: 'Your translation memory, on your own server. No data leaves it.',
        context: 'app.tagline',
        segmentable: true,
      },
      { source: `Hello ${ph(1, '{{name}}')}, welcome back!`, context: 'inbox.greeting', segmentable: true },
      {
        source: `You have ${ph(1, '{{count}}')} unread message.`,
        context: 'inbox.unread_one',
        segmentable: true,
      },
      {
        source: `You have ${ph(1, '{{count}}')} unread messages.`,
        context: 'inbox.unread_other',
        segmentable: true,
      },
      {
        source:
          `You have ${ph(1, '{count, plural, =0 {')}no messages${ph(2, '} one {')}${ph(3, '#')} message` +
          `${ph(4, '} other {')}${ph(5, '#')} messages${ph(6, '}}')} from ${ph(7, '{sender}')}.`,
        context: 'inbox.summary',
        segmentable: false,
      },
      {
        source: `See ${ph(1, '$t(common.docs)')} or ${ph(2, '<1>')}contact us${ph(3, '</1>')}.`,
        context: 'inbox.help',
        segmentable: true,
      },
      {
        source: `Saved to C:\\Users\\${ph(1, '{{user}}')}\\Tessera — "drafts"`,
        context: 'inbox.path',
        segmentable: true,
      },
      { source: 'Open', context: 'menu[0]', segmentable: true },
      { source: 'Save as…', context: 'menu[1]', segmentable: true },
      { source: 'Quit', context: 'menu[3]', segmentable: true },
      { source: 'the documentation', context: 'common.docs', segmentable: true },
      { source: 'OK', context: 'common.ok', segmentable: true },
    ]);
  });

  it('splices translations as escaped JSON strings and keeps the rest of the file', async () => {
    const original = fixture('en.json');
    const units = await jsonFilter.extract(original, options);
    const translations = units.map((): string | null => null);
    translations[2] = `Hallo ${ph(1, '{{name}}')}, willkommen zurück!`;
    translations[5] =
      `Sie haben ${ph(1, '{count, plural, =0 {')}keine Nachrichten${ph(2, '} one {')}${ph(3, '#')} Nachricht` +
      `${ph(4, '} other {')}${ph(5, '#')} Nachrichten${ph(6, '}}')} von ${ph(7, '{sender}')}.`;
    translations[7] = `Gespeichert unter C:\\Benutzer\\${ph(1, '{{user}}')}\t"Entwürfe"\n`;
    translations[10] = 'Beenden';
    const merged = (await jsonFilter.merge(original, confirmed(translations), options)).toString('utf8');
    const data = JSON.parse(merged);
    assert.equal(data.inbox.greeting, 'Hallo {{name}}, willkommen zurück!');
    assert.equal(
      data.inbox.summary,
      'Sie haben {count, plural, =0 {keine Nachrichten} one {# Nachricht} other {# Nachrichten}} von {sender}.',
    );
    assert.equal(data.inbox.path, 'Gespeichert unter C:\\Benutzer\\{{user}}\t"Entwürfe"\n');
    assert.deepEqual(data.menu, ['Open', 'Save as…', null, 'Beenden']);
    assert.ok(
      merged.includes('    "path": "Gespeichert unter C:\\\\Benutzer\\\\{{user}}\\t\\"Entwürfe\\"\\n"\n'),
    );
    assert.ok(merged.includes('"menu": ["Open", "Save as\\u2026", null, "Beenden"],'));
    assert.equal(merged.split('\n').length, original.toString('utf8').split('\n').length);
  });

  it('rejects malformed JSON with line and column', async () => {
    await rejectsAt('{\n  "a": "x",\n}', 'unexpected "}", expected a key', 3, 1);
    await rejectsAt('{"a": "x" "b": 1}', 'unexpected "\\"", expected "," or "}"', 1, 11);
    await rejectsAt('{"a": [1, 2}', 'unexpected "}", expected "," or "]"', 1, 12);
    await rejectsAt('{"a": "tab\there"}', 'control character in string', 1, 11);
    await rejectsAt('{"a": "bad \\x escape"}', 'invalid escape', 1, 12);
    await rejectsAt('{"a": "open', 'unterminated string', 1, 7);
    await rejectsAt('{"a": tru}', 'unexpected "t"', 1, 7);
    await rejectsAt('{"a": 1}\n// comment', 'unexpected "/" after the end of the document', 2, 1);
    await rejectsAt('', 'unexpected end of input', 1, 1);
    await rejectsAt('['.repeat(600), 'nested too deeply', 1, 514);
  });
});

describe('jsonFilter merge of pre-translated drafts', () => {
  const original = Buffer.from(
    JSON.stringify(
      {
        files: '{{count}} files',
        greeting: 'Hello {{name}}, welcome back!',
        copied: 'Copied {{file}} to {{folder}}',
        summary: '{count, plural, one {# file} other {# files}} in {folder}',
        saved: 'Saved',
      },
      null,
      2,
    ),
  );
  /** i18next and ICU placeholders of a value, as a sorted list: what must be the same in source and target. */
  const placeholders = (value: string) => (value.match(/\{\{[^{}]+\}\}|\{\w+(?=[,}])/g) ?? []).sort();

  it('merges drafts whose placeholders were repaired, keeps the source where they still differ', async () => {
    const units = await jsonFilter.extract(original, options);
    const draft = (matchSource: string, matchTarget: string, i: number) => ({
      text: repairTarget(matchSource, matchTarget, units[i].source)?.target ?? matchTarget,
      confirmed: false,
    });
    const translations = [
      // A match from a printf project: %s becomes the document's {{count}}.
      draft('%s files', '%s Dateien', 0),
      draft('Hello {{user}}, welcome back!', 'Hallo {{user}}, willkommen zurück!', 1),
      // One placeholder for two: no repair, and the draft does not run.
      draft('Copied %s', '%s kopiert', 2),
      { text: '{count, plural, one {# Datei} other {# Dateien}} in {folder}', confirmed: true },
      { text: 'Gespeichert', confirmed: true },
    ];
    const merged = JSON.parse((await jsonFilter.merge(original, translations, options)).toString('utf8'));
    const source = JSON.parse(original.toString('utf8'));
    assert.deepEqual(merged, {
      files: '{{count}} Dateien',
      greeting: 'Hallo {{name}}, willkommen zurück!',
      copied: 'Copied {{file}} to {{folder}}',
      summary: '{count, plural, one {# Datei} other {# Dateien}} in {folder}',
      saved: 'Gespeichert',
    });
    for (const [key, value] of Object.entries(merged)) {
      assert.deepEqual(placeholders(value), placeholders(source[key]), key);
    }
  });

  it('names the translations whose placeholders would not run, and will not write a confirmed one', async () => {
    const translations = [
      { text: '{{count}} Dateien', confirmed: true },
      { text: 'Hallo {{user}}!', confirmed: true },
      { text: '{{file}} kopiert', confirmed: false },
      null,
      { text: 'Gespeichert', confirmed: true },
    ];
    assert.deepEqual(jsonFilter.placeholders?.mismatch, 'blocked');
    assert.deepEqual(await jsonFilter.placeholders?.mismatches(original, translations, options), [
      { unit: 1, problem: 'Placeholder {{name}} of the source became {{user}}' },
      { unit: 2, problem: 'Placeholder {{folder}} of the source is missing' },
    ]);
    // The export refuses such a document before merging; merge itself never drops confirmed work silently.
    await assert.rejects(
      jsonFilter.merge(original, translations, options),
      /a confirmed translation cannot be written/,
    );
  });
});
