import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { FormatError } from '../../errors.ts';
import { repairTarget } from '../../text/placeables.ts';
import { yamlFilter } from './yaml-filter.ts';

const fixture = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url));
const options = { srclang: 'en', trglang: 'de' };
const ph = (id: number, code: string) => `<ph id="${id}">${code}</ph>`;

/** Translations a person confirmed, as the export gives them. */
const confirmed = (texts: readonly (string | null)[]) =>
  texts.map((text) => (text === null ? null : { text, confirmed: true }));

async function rejectsAt(input: string, message: string, line: number, column: number) {
  await assert.rejects(yamlFilter.extract(Buffer.from(input), options), (e: unknown) => {
    assert.ok(e instanceof FormatError, String(e));
    assert.equal(e.message, `YAML: ${message} at line ${line}, column ${column}`);
    return true;
  });
}

const GERMAN: (string | null)[] = [
  'muss ausgefüllt werden',
  `ist zu lang (höchstens ${ph(1, '%{count}')} Zeichen)`,
  "ist bereits vergeben, 'leider'",
  '%d.%m.%Y',
  'Sonntag',
  'Montag, der Erste',
  null,
  'So',
  '- Mo',
  `${ph(1, '%{model}')} erstellen`,
  `${ph(1, '%{model}')}: aktualisieren`,
  `Hallo ${ph(1, '%{name}')},\n\nWillkommen bei Tessera.\n  Ihre Speicher bleiben auf Ihrem Server.\n`,
  'Sie erhalten diese E-Mail, weil Sie sich angemeldet haben.',
  'Ja',
  'No',
];

describe('yamlFilter', () => {
  it('extracts string values under the locale key, key paths as context', async () => {
    const units = await yamlFilter.extract(fixture('en.yml'), options);
    assert.deepEqual(
      units.map((u) => [u.context, u.source]),
      [
        ['activerecord.errors.messages.blank', "can't be blank"],
        ['activerecord.errors.messages.too_long', `is too long (maximum is ${ph(1, '%{count}')} characters)`],
        ['activerecord.errors.messages.taken', 'has already been taken'],
        ['date.formats.default', '%Y-%m-%d'],
        ['date.day_names[0]', 'Sunday'],
        ['date.day_names[1]', 'Monday'],
        ['date.day_names[2]', 'Tuesday'],
        ['date.abbr_day_names[0]', 'Sun'],
        ['date.abbr_day_names[1]', 'Mon'],
        ['helpers.submit.create', `Create ${ph(1, '%{model}')}`],
        ['helpers.submit.update', `Update ${ph(1, '%{model}')}`],
        [
          'mailer.welcome.body',
          `Hello ${ph(1, '%{name}')},\n\nWelcome to Tessera. Your memories stay on your server.\n`,
        ],
        ['mailer.welcome.footer', 'You receive this email because you signed up.'],
        ['defaults.yes_label', 'Yes'],
        ['defaults.no_label', 'No'],
      ],
    );
    assert.ok(units.every((u) => u.segmentable && u.notes === undefined && u.target === undefined));
  });

  it('keeps paths whole when the root is not the source language', async () => {
    const units = await yamlFilter.extract(Buffer.from('title: Home\nnav: {about: About us}\n'), options);
    assert.deepEqual(
      units.map((u) => [u.context, u.source]),
      [
        ['title', 'Home'],
        ['nav.about', 'About us'],
      ],
    );
  });

  it('writes translations that YAML reads back exactly, renaming the locale key', async () => {
    const merged = (await yamlFilter.merge(fixture('en.yml'), confirmed(GERMAN), options)).toString('utf8');
    const de = parse(merged, { merge: true }).de;
    assert.deepEqual(de.activerecord.errors.messages, {
      blank: 'muss ausgefüllt werden',
      too_long: 'ist zu lang (höchstens %{count} Zeichen)',
      taken: "ist bereits vergeben, 'leider'",
    });
    assert.deepEqual(de.date, {
      formats: { default: '%d.%m.%Y' },
      day_names: ['Sonntag', 'Montag, der Erste', 'Tuesday'],
      abbr_day_names: ['So', '- Mo'],
    });
    assert.deepEqual(de.helpers.submit, { create: '%{model} erstellen', update: '%{model}: aktualisieren' });
    assert.equal(
      de.mailer.welcome.body,
      'Hallo %{name},\n\nWillkommen bei Tessera.\n  Ihre Speicher bleiben auf Ihrem Server.\n',
    );
    assert.equal(de.mailer.welcome.footer, 'Sie erhalten diese E-Mail, weil Sie sich angemeldet haben.');
    assert.deepEqual(de.admin, {
      yes_label: 'Ja',
      no_label: 'No',
      count: 3,
      enabled: true,
      empty: '',
      pattern: '/^[a-z]+$/',
    });
    // Styles kept where the value allows, comments and anchors untouched.
    for (const line of [
      '# English strings of the Tessera test application (Rails i18n layout).\nde:\n',
      '        taken: "ist bereits vergeben, \'leider\'"\n',
      '        too_long: ist zu lang (höchstens %{count} Zeichen)\n',
      '    day_names: [Sonntag, "Montag, der Erste", Tuesday]\n',
      '      - "- Mo"\n',
      '      create: "%{model} erstellen" # shown on "new" forms\n',
      '      update: "%{model}: aktualisieren"\n',
      '      body: |\n        Hallo %{name},\n\n        Willkommen bei Tessera.\n          Ihre Speicher bleiben auf Ihrem Server.\n      footer: |-\n',
      '  defaults: &defaults\n    yes_label: "Ja"\n    no_label: "No"\n',
    ]) {
      assert.ok(merged.includes(line), line);
    }
  });

  it('quotes values that YAML 1.1 would read as something else, single quotes kept where they can be', async () => {
    const original = Buffer.from("en:\n  a: x\n  b: 'y'\n  c: z\n  d: w\n");
    const units = await yamlFilter.extract(original, { srclang: 'en-US', trglang: 'pt-BR' });
    assert.equal(units.length, 4);
    const merged = await yamlFilter.merge(original, confirmed(['No', 'Sim', '1:20', 'Sim #1']), {
      srclang: 'en-US',
      trglang: 'pt-BR',
    });
    assert.equal(merged.toString('utf8'), 'pt-BR:\n  a: "No"\n  b: \'Sim\'\n  c: "1:20"\n  d: "Sim #1"\n');
  });

  it('leaves unquoted YAML 1.1 booleans alone: Rails reads yes, On, OFF, n as true or false', async () => {
    const original = Buffer.from(
      'en:\n  a: yes\n  b: No\n  c: ON\n  d: off\n  e: y\n  f: N\n  g: True\n' +
        '  h: "yes"\n  i: \'no\'\n  j: yes, please\n',
    );
    const units = await yamlFilter.extract(original, options);
    assert.deepEqual(
      units.map((u) => [u.context, u.source]),
      [
        ['h', 'yes'],
        ['i', 'no'],
        ['j', 'yes, please'],
      ],
    );
    const merged = await yamlFilter.merge(original, confirmed(['ja', 'nein', 'ja, bitte']), options);
    assert.deepEqual(parse(merged.toString('utf8'), { version: '1.1' }).de, {
      a: true,
      b: false,
      c: true,
      d: false,
      e: true,
      f: false,
      g: true,
      h: 'ja',
      i: 'nein',
      j: 'ja, bitte',
    });
  });

  it('rejects malformed YAML with line and column', async () => {
    await rejectsAt('en:\n  a: 1\n  a: 2\n', 'Map keys must be unique', 3, 3);
    await rejectsAt('en:\n  a: "open\n', 'Missing closing "quote', 3, 1);
    await rejectsAt('en:\n  a: b\n c: d\n', 'All mapping items must start at the same column', 3, 1);
  });

  // Refused before the library's composer recurses into it: past V8's stack the composer's own error
  // handling could abort the process. The position is where the 513th level opens (the root map is the first).
  it('refuses nesting past 512 levels, in flow or block style, at the level that is one too many', async () => {
    const flow = (n: number) => `a: ${'['.repeat(n)}x${']'.repeat(n)}\n`;
    assert.deepEqual(
      (await yamlFilter.extract(Buffer.from(flow(511)), options)).map((u) => u.source),
      ['x'],
    );
    await rejectsAt(flow(512), 'nested too deeply', 1, 4 + 511);
    await rejectsAt(flow(50_000), 'nested too deeply', 1, 4 + 511);
    await rejectsAt(
      `a: ${'{b: '.repeat(50_000)}x${'}'.repeat(50_000)}\n`,
      'nested too deeply',
      1,
      4 + 4 * 511,
    );
    const dashes = (n: number) => `${'- '.repeat(n)}x\n`;
    assert.equal((await yamlFilter.extract(Buffer.from(dashes(512)), options)).length, 1);
    await rejectsAt(dashes(50_000), 'nested too deeply', 1, 1 + 2 * 512);
    const indented = Array.from({ length: 5_000 }, (_, i) => `${' '.repeat(i)}k:`).join('\n');
    await rejectsAt(`${indented} x\n`, 'nested too deeply', 513, 513);
  });
});

describe('yamlFilter merge of pre-translated drafts', () => {
  const original = Buffer.from(
    'en:\n  files: "%{count} files"\n  greeting: Hello %{name}\n  copied: Copied %{file} to %{folder}\n' +
      '  date: "%Y-%m-%d"\n  ok: OK\n',
  );
  /** Rails interpolations of a value, sorted: what I18n.t must find in source and target alike. */
  const placeholders = (value: string) => (value.match(/%\{[^{}]+\}|%<\w+>/g) ?? []).sort();

  it('merges drafts whose placeholders were repaired, keeps the source where they still differ', async () => {
    const units = await yamlFilter.extract(original, options);
    const draft = (matchSource: string, matchTarget: string, i: number) => ({
      text: repairTarget(matchSource, matchTarget, units[i].source)?.target ?? matchTarget,
      confirmed: false,
    });
    const translations = [
      draft('%d files', '%d Dateien', 0),
      // A match from an i18next project: {{name}} becomes the document's %{name}.
      draft('Hello {{name}}', 'Hallo {{name}}', 1),
      draft('Copied %{file}', '%{file} kopiert', 2),
      { text: '%d.%m.%Y', confirmed: true },
      { text: 'In Ordnung', confirmed: true },
    ];
    const merged = parse((await yamlFilter.merge(original, translations, options)).toString('utf8')).de;
    const source = parse(original.toString('utf8')).en;
    assert.deepEqual(merged, {
      files: '%{count} Dateien',
      greeting: 'Hallo %{name}',
      copied: 'Copied %{file} to %{folder}',
      date: '%d.%m.%Y',
      ok: 'In Ordnung',
    });
    for (const [key, value] of Object.entries(merged)) {
      assert.deepEqual(placeholders(value), placeholders(source[key]), key);
    }
  });

  it('names the translations whose placeholders would not run, and will not write a confirmed one', async () => {
    const translations = [{ text: '%{anzahl} Dateien', confirmed: true }, null, null, null, null];
    assert.deepEqual(yamlFilter.placeholders?.mismatch, 'blocked');
    assert.deepEqual(await yamlFilter.placeholders?.mismatches(original, translations, options), [
      { unit: 0, problem: 'Placeholder %{count} of the source became %{anzahl}' },
    ]);
    await assert.rejects(
      yamlFilter.merge(original, translations, options),
      /a confirmed translation cannot be written/,
    );
  });
});
