// Ties the tokenizer to INDEX_FORMAT: saved index files hold entries as token ids, so tokens that change
// without a new format would be read back as stale ones. The digest of a varied sample's tokens is recorded
// per format; a change to the tokens (tokenize.ts, the inline tag parser, or the Unicode data of a new
// Node, which the character classes come from) fails here until INDEX_FORMAT is bumped and its digest added.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { INDEX_FORMAT } from './index-file.ts';
import { tokenize } from './tokenize.ts';

/**
 * The digest of the sample's tokens under each index format that changed them (or was bumped since); each
 * of the sample as it was then (format 10's is of the sample without its last line).
 */
const GOLDEN: Record<number, string> = {
  10: '21c8b5fbfebb312455d934dd4c07278b86e31b0508f39d6987d05f598e040c24',
  11: '98a11cd7b115c56e2e946889d528f3f297c94ac6795321814bd0f95f3f019536',
};

const SAMPLE = [
  '',
  "Don't stop the well-known rock'n'roll band.",
  "L'homme qu'il a vu aujourd'hui — c'est ça.",
  "O'Neill's 90's rock 'n' roll, ’tis -x- a--b",
  'Hyphen-ated non‑breaking‑hyphen en–dash em—dash file.txt e-mail',
  'Save 3.5% on 1,234.56 items (was 1.234,56 €), 2nd of 10th',
  'Version 2.0-beta.3 released on 2024-01-15T10:30:00Z',
  'Ｐｒｉｃｅ：１２３４円 and ＡＢＣ, half-width ｶﾀｶﾅ',
  'Arabic: مرحبا بالعالم ١٢٣, Devanagari: नमस्ते दुनिया १२३',
  'Math: 2+2=4, x² ≥ ½, −5 °C, 10km/h, IV. Chapter XII — Section 3(a)(ii)',
  '!!! ??? ... --- *** ;:, ¿¡ () [] {} / \\ | @ # & ~ ^',
  'Quotes “smart” ‘single’ «guillemets» „low” "straight"',
  'Click <g id="1">here</g> to <x id="2"/> continue.',
  '<bpt id="1">&lt;b&gt;</bpt>bold<ept id="1">&lt;/b&gt;</ept> text <ph id="3">{0}</ph>',
  '<bx id="4"/>Line<ex id="4"/> with <it pos="open">&lt;i&gt;</it> and <mrk mtype="x">marked</mrk>',
  'Hello %s, you have %d new messages (%1$s, %2$d, %.2f%%).',
  'Welcome {0}, your order {1} ships {{date}} to {name}.',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell's ${NAME} placeholder, not a template
  'Press {{x}} or ${NAME} or %{count} or {count, plural, one {# item} other {# items}}',
  '日本語のテキストを翻訳します。ー゛',
  '中文测试：我们有3个苹果。',
  'ภาษาไทยไม่มีการเว้นวรรคระหว่างคำ ทำ น้ำ',
  'Lao: ສະບາຍດີ ແລະ ຄຳ, Khmer: សួស្តី, Myanmar: မင်္ဂလာပါ',
  '한국어 문장은 띄어쓰기를 합니다. 한글 123',
  'Mixed 日本語and English混在text 123abc abc123',
  'MiXeD CaSe iPhone macOS USB-C ÀÉÎÕÜ straße ǅ İstanbul',
  'Cafe\u0301 re\u0301sume\u0301 nai\u0308ve A\u030a',
  'Russian: Привет, мир! Ёлка; Greek: Καλημέρα κόσμε ΣΊΣΥΦΟΣ',
  'Emoji 👍🏽 and flags 🇫🇷 and ZWJ 👨‍👩‍👧 and 𝐁𝐨𝐥𝐝 𝟏𝟐𝟑',
  'Tabs\tand\nnewlines  and   spaces\u00a0no-break\u200bzero-width',
  'URL https://example.com/path?q=1&r=2 and mail a.b@example.org',
  'Zero\u200cwidth non\u200djoiner, soft\u00adhyphen',
  // Since format 11 (placeholders are content tokens): entities, shell and Rails forms, printf's %%.
  'Save &amp; close&nbsp;now &#160; $HOME %<n>d %%d 100%% <ph id="1">{{count}}</ph> {n, plural, one {',
];

/** The sample's tokens (type, norm and real form of each) as one SHA-256. */
function digest(): string {
  const tokens = SAMPLE.map((text) => tokenize(text).map((t) => [t.type, t.norm, t.real]));
  return createHash('sha256').update(JSON.stringify(tokens)).digest('hex');
}

describe('tokenize: the tokens of a fixed sample, by index format', () => {
  it('INDEX_FORMAT is the newest format with a recorded digest', () => {
    const newest = Math.max(...Object.keys(GOLDEN).map(Number));
    assert.equal(
      INDEX_FORMAT,
      newest,
      `INDEX_FORMAT is ${INDEX_FORMAT} but the newest digest is for ${newest}: record GOLDEN[${INDEX_FORMAT}] = '${digest()}'`,
    );
  });

  it('gives the tokens recorded for INDEX_FORMAT', () => {
    // A format without a digest is what the test above reports.
    if (GOLDEN[INDEX_FORMAT] === undefined) return;
    const now = digest();
    assert.equal(
      now,
      GOLDEN[INDEX_FORMAT],
      `the tokenizer changed: bump INDEX_FORMAT and add its digest (GOLDEN[${INDEX_FORMAT + 1}] = '${now}')`,
    );
  });
});
