import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { SaxesParser } from 'saxes';
import { FormatError } from '../../errors.ts';
import { repairTarget } from '../../text/placeables.ts';
import { androidFilter } from './android-filter.ts';

const fixture = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url));
const options = { srclang: 'en', trglang: 'de' };
const XG = (attrs: string, code: string) => `&lt;xliff:g ${attrs}&gt;${code}&lt;/xliff:g&gt;`;

/** Translations a person confirmed, as the export gives them. */
const confirmed = (texts: readonly (string | null)[]) =>
  texts.map((text) => (text === null ? null : { text, confirmed: true }));

/** Parses with a strict namespace-aware XML parser; throws on the first error. */
function parseStrict(xml: string): void {
  const parser = new SaxesParser({ xmlns: true });
  parser.on('error', (e) => {
    throw e;
  });
  parser.write(xml).close();
}

async function rejectsAt(input: string, message: string, line: number, column: number) {
  await assert.rejects(androidFilter.extract(Buffer.from(input), options), (e: unknown) => {
    assert.ok(e instanceof FormatError, String(e));
    assert.equal(e.message, `strings.xml: ${message} at line ${line}, column ${column}`);
    return true;
  });
}

const res = (body: string) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">\n${body}\n</resources>\n`;

describe('androidFilter', () => {
  it('extracts strings, plural and array items; skips untranslatable ones, references and empties', async () => {
    assert.deepEqual(await androidFilter.extract(fixture('strings.xml'), options), [
      {
        source: 'Translation memories',
        context: 'memories_title',
        segmentable: true,
        notes: ['Title of the screen that lists translation memories'],
      },
      {
        source: `Welcome back, <ph id="1">${XG('id="user_name" example="Ada"', '%1$s')}</ph>!`,
        context: 'welcome',
        segmentable: true,
      },
      {
        source:
          'Don\\\'t delete \\"<bpt id="1">&lt;b&gt;</bpt>%1$s<ept id="1">&lt;/b&gt;</ept>\\"?\\nThis can\\\'t be undone.',
        context: 'delete_confirm',
        segmentable: true,
      },
      { source: 'Terms & conditions apply. See <b>here</b>…', context: 'legal', segmentable: true },
      { source: '"It\'s a quoted string"', context: 'quoted', segmentable: true },
      { source: '\\@tessera on Mastodon', context: 'at_sign', segmentable: true },
      { source: 'Open <a href="https://example.org">the docs</a>', context: 'html', segmentable: true },
      {
        source: `<ph id="1">${XG('id="count"', '%d')}</ph> segment imported`,
        context: 'segments_imported[one]',
        segmentable: true,
        notes: ['Shown after a TMX import'],
      },
      {
        source: `<ph id="1">${XG('id="count"', '%d')}</ph> segments imported`,
        context: 'segments_imported[other]',
        segmentable: true,
        notes: ['Shown after a TMX import'],
      },
      { source: 'Newest first', context: 'sort_orders[0]', segmentable: true },
      { source: 'Oldest first', context: 'sort_orders[1]', segmentable: true },
      {
        source: 'Tessera keeps your memories\n        on your own server.',
        context: 'multiline',
        segmentable: true,
      },
    ]);
  });

  it('writes translations a strict XML parser accepts, with Android escapes added where needed', async () => {
    const original = fixture('strings.xml');
    const translations = [
      'Übersetzungsspeicher',
      `Willkommen zurück, <ph id="1">${XG('id="user_name" example="Ada"', '%1$s')}</ph>!`,
      '\\"<bpt id="1">&lt;b&gt;</bpt>%1$s<ept id="1">&lt;/b&gt;</ept>\\" nicht löschen?\\nDas kann man nicht rückgängig machen.',
      'Es gelten die AGB & <Bedingungen>.',
      '"Das ist eine Zeichenkette in \'Anführungszeichen\'"',
      '@tessera auf Mastodon',
      "Öffnen Sie die <a href='x'>Doku</a>",
      `<ph id="1">${XG('id="count"', '%d')}</ph> Segment importiert`,
      `<ph id="1">${XG('id="count"', '%d')}</ph> Segmente importiert`,
      "Neueste zuerst, d'accord",
      null,
      'Tessera behält Ihre Speicher\nauf Ihrem eigenen Server.',
    ];
    const merged = (await androidFilter.merge(original, confirmed(translations), options)).toString('utf8');
    parseStrict(merged);
    for (const line of [
      '<string name="memories_title">Übersetzungsspeicher</string>',
      '<string name="welcome">Willkommen zurück, <xliff:g id="user_name" example="Ada">%1$s</xliff:g>!</string>',
      '<string name="delete_confirm">\\"<b>%1$s</b>\\" nicht löschen?\\nDas kann man nicht rückgängig machen.</string>',
      '<string name="legal" tools:ignore="TypographyEllipsis">Es gelten die AGB &amp; &lt;Bedingungen&gt;.</string>',
      '<string name="quoted">"Das ist eine Zeichenkette in \'Anführungszeichen\'"</string>',
      '<string name="at_sign">\\@tessera auf Mastodon</string>',
      '<string name="html">Öffnen Sie die &lt;a href=\\\'x\\\'&gt;Doku&lt;/a&gt;</string>',
      '<item quantity="one"><xliff:g id="count">%d</xliff:g> Segment importiert</item>',
      "<item>Neueste zuerst, d\\'accord</item>\n        <item>Oldest first</item>",
      '<string name="multiline">\n        Tessera behält Ihre Speicher\nauf Ihrem eigenen Server.\n    </string>',
      '<string name="app_name" translatable="false">Tessera</string>',
    ]) {
      assert.ok(merged.includes(line), line);
    }
  });

  it('keeps the file well-formed whatever the translation does with the tags', async () => {
    const original = Buffer.from(res('<string name="a">Press <b>OK</b> or <i>Cancel</i></string>'));
    const [unit] = await androidFilter.extract(original, options);
    assert.equal(
      unit.source,
      'Press <bpt id="1">&lt;b&gt;</bpt>OK<ept id="1">&lt;/b&gt;</ept> or <bpt id="2">&lt;i&gt;</bpt>Cancel<ept id="2">&lt;/i&gt;</ept>',
    );
    const merge = async (translation: string) => {
      const xml = (await androidFilter.merge(original, confirmed([translation]), options)).toString('utf8');
      parseStrict(xml);
      return /<string name="a">(.*)<\/string>/.exec(xml)![1];
    };
    // Reordered pairs are fine; a lost close tag drops its open tag; crossed pairs drop all markup.
    assert.equal(
      await merge(
        '<bpt id="2">&lt;i&gt;</bpt>Abbrechen<ept id="2">&lt;/i&gt;</ept> oder <bpt id="1">&lt;b&gt;</bpt>OK<ept id="1">&lt;/b&gt;</ept>',
      ),
      '<i>Abbrechen</i> oder <b>OK</b>',
    );
    assert.equal(
      await merge(
        '<bpt id="1">&lt;b&gt;</bpt>OK oder <bpt id="2">&lt;i&gt;</bpt>Abbrechen<ept id="2">&lt;/i&gt;</ept>',
      ),
      'OK oder <i>Abbrechen</i>',
    );
    assert.equal(
      await merge(
        '<bpt id="1">&lt;b&gt;</bpt>OK <bpt id="2">&lt;i&gt;</bpt>x<ept id="1">&lt;/b&gt;</ept>y<ept id="2">&lt;/i&gt;</ept>',
      ),
      'OK xy',
    );
    // Codes the source does not have are text; foreign paired tags are dropped.
    assert.equal(await merge('<ph id="9">&lt;u&gt;</ph>OK<g id="3">!</g>'), '&lt;u&gt;OK!');
  });

  it('leaves a string’s edge whitespace, as Android writes it, in the file: escapes, and quotes kept for spaces', async () => {
    const original = Buffer.from(
      res(
        [
          '<string name="loading">"  Loading…  "</string>',
          '<string name="done">Done.\\n</string>',
          '<string name="lead">\\u0020\\tName:\\n </string>',
          '<string name="slash">Path \\\\n</string>',
          '<string name="apostrophe">"It\'s here"</string>',
          '<string name="blank">"  \\n "</string>',
        ].join('\n'),
      ),
    );
    // Was: `"  Loading…  "`, `Done.\n` and `\u0020\tName:\n` — no memory entry matched them at 100, and a
    // match inserted dropped the newline.
    assert.deepEqual(
      (await androidFilter.extract(original, options)).map((u) => u.source),
      // A string of nothing but whitespace stays a unit, as it was: the units of a document imported before.
      ['Loading…', 'Done.', 'Name:', 'Path \\\\n', '"It\'s here"', '"  \\n "'],
    );
    const merged = (
      await androidFilter.merge(
        original,
        confirmed(['Sag "Hallo" – it\'s @home', 'Fertig.', 'Name:', 'Pfad \\\\n', '"Sie ist\'s"', null]),
        options,
      )
    ).toString('utf8');
    parseStrict(merged);
    for (const line of [
      // Inside the quotes the file keeps, a quote typed is escaped; an apostrophe or @ needs nothing.
      '<string name="loading">"  Sag \\"Hallo\\" – it\'s @home  "</string>',
      '<string name="done">Fertig.\\n</string>',
      '<string name="lead">\\u0020\\tName:\\n </string>',
      '<string name="slash">Pfad \\\\n</string>',
      '<string name="apostrophe">"Sie ist\'s"</string>',
      '<string name="blank">"  \\n "</string>',
    ]) {
      assert.ok(merged.includes(line), line);
    }
    // A translation holding them too — a document imported while segments held them — writes them once.
    const again = (
      await androidFilter.merge(
        original,
        confirmed(['"  Wird geladen…  "', 'Fertig.\\n', '\\u0020\\tName:\\n', null, null, null]),
        options,
      )
    ).toString('utf8');
    for (const line of [
      '<string name="loading">"  Wird geladen…  "</string>',
      '<string name="done">Fertig.\\n</string>',
      '<string name="lead">\\u0020\\tName:\\n </string>',
    ]) {
      assert.ok(again.includes(line), line);
    }
  });

  it('rejects malformed or unsafe files with line and column', async () => {
    await rejectsAt(
      '<?xml version="1.0"?>\n<!DOCTYPE resources [<!ENTITY app "Tessera">]>\n<resources><string name="a">&app;</string></resources>',
      'entity declarations are not allowed',
      2,
      46,
    );
    await rejectsAt(res('<string name="a">Caf&eacute;</string>'), 'undefined entity', 3, 28);
    await rejectsAt(res('<string name="a">Open <b>now</string>'), 'unexpected close tag', 3, 37);
    await rejectsAt('<manifest/>', 'root element is <manifest>, not <resources>', 1, 11);
    await rejectsAt(res('<string>No name</string>'), '<string> without a name', 3, 8);
    await rejectsAt(
      res('<string name="a">x</string>').replace('utf-8', 'ISO-8859-1'),
      'encoding "ISO-8859-1" is not supported (use UTF-8)',
      1,
      1,
    );
  });
});

describe('androidFilter merge of pre-translated drafts', () => {
  const original = Buffer.from(
    res(
      '    <string name="files">%d files</string>\n' +
        '    <string name="welcome">Welcome, <xliff:g id="user">%1$s</xliff:g>!</string>\n' +
        '    <string name="copied">Copied %1$s to %2$s</string>\n' +
        '    <plurals name="songs">\n' +
        '        <item quantity="one">%d song</item>\n' +
        '        <item quantity="other">%d songs</item>\n' +
        '    </plurals>\n' +
        '    <string name="title">100%% Library</string>',
    ),
  );

  /** Each string's text by resource name (plural items as name[quantity]), read with a strict parser. */
  function strings(xml: string): Map<string, string> {
    const found = new Map<string, string>();
    const parser = new SaxesParser({ xmlns: true });
    let name = '';
    let text: string | undefined;
    parser.on('error', (e) => {
      throw e;
    });
    parser.on('opentag', (tag) => {
      if (tag.name === 'string' || tag.name === 'plurals') name = String(tag.attributes.name?.value);
      if (tag.name === 'string') text = '';
      if (tag.name === 'item') {
        name = `${name.replace(/\[.*$/, '')}[${tag.attributes.quantity?.value}]`;
        text = '';
      }
    });
    parser.on('text', (t) => {
      if (text !== undefined) text += t;
    });
    parser.on('closetag', (tag) => {
      if (tag.name === 'string' || tag.name === 'item') {
        found.set(name, text!);
        text = undefined;
      }
    });
    parser.write(xml).close();
    return found;
  }
  /** The format arguments of a string, sorted: what getString(id, args…) formats. */
  const placeholders = (value: string) =>
    (value.replace(/%%/g, '').match(/%(?:\d+\$)?[-#+ 0,(]*\d*(?:\.\d+)?[a-zA-Z]/g) ?? []).sort();

  it('merges drafts whose placeholders were repaired, keeps the source where they still differ', async () => {
    const units = await androidFilter.extract(original, options);
    const draft = (matchSource: string, matchTarget: string, i: number) => ({
      text: repairTarget(matchSource, matchTarget, units[i].source)?.target ?? matchTarget,
      confirmed: false,
    });
    const translations = [
      draft('%s files', '%s Dateien', 0),
      draft('Welcome, %1$s!', 'Willkommen, %1$s!', 1),
      // One argument for two: no repair, and the draft would throw MissingFormatArgumentException.
      draft('Copied %1$s', '%1$s kopiert', 2),
      { text: '%d Lied', confirmed: true },
      { text: '%d Lieder', confirmed: true },
      { text: '100%% Bibliothek', confirmed: true },
    ];
    const xml = (await androidFilter.merge(original, translations, options)).toString('utf8');
    const merged = strings(xml);
    const source = strings(original.toString('utf8'));
    assert.deepEqual(Object.fromEntries(merged), {
      files: '%d Dateien',
      welcome: 'Willkommen, %1$s!',
      copied: 'Copied %1$s to %2$s',
      'songs[one]': '%d Lied',
      'songs[other]': '%d Lieder',
      title: '100%% Bibliothek',
    });
    assert.ok(xml.includes('<string name="welcome">Willkommen, <xliff:g id="user">%1$s</xliff:g>!</string>'));
    for (const [key, value] of source)
      assert.deepEqual(placeholders(merged.get(key)!), placeholders(value), key);
  });

  it('names the translations whose placeholders would not run, and will not write a confirmed one', async () => {
    const translations = [{ text: '%s Dateien', confirmed: true }, null, null, null, null, null];
    assert.deepEqual(androidFilter.placeholders?.mismatch, 'blocked');
    assert.deepEqual(await androidFilter.placeholders?.mismatches(original, translations, options), [
      { unit: 0, problem: 'Placeholder %d of the source became %s' },
    ]);
    await assert.rejects(
      androidFilter.merge(original, translations, options),
      /a confirmed translation cannot be written/,
    );
  });
});
