import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FileLimitError } from '../../errors.ts';
import { guardLines, MAX_SEPARATORS } from './line-guard.ts';

const limits = { name: 'TSV', delimiter: '\t', delimiters: 'tabs', maxLineChars: 10 };

/** The text in chunks of `size` bytes through the guard: the bytes passed on, or the error's message. */
async function through(text: string, size: number, max = limits) {
  const bytes = Buffer.from(text);
  async function* chunks() {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  }
  const out: Buffer[] = [];
  try {
    for await (const chunk of guardLines(chunks(), max)) out.push(Buffer.from(chunk));
    return Buffer.concat(out).toString();
  } catch (err) {
    assert.ok(err instanceof FileLimitError);
    return (err as Error).message;
  }
}

test('lines within the limits pass unchanged, whatever the chunks', async () => {
  const text = 'a\tb\r\nc\td\re\tf\ng\th';
  for (const size of [1, 2, 3, 64]) assert.equal(await through(text, size), text);
});

test('a line of too many bytes names its line, counted over LF, CR and CRLF across chunks', async () => {
  // 30 bytes is more than 10 characters could take.
  const text = `a\tb\r\nc\td\re\tf\n${'x'.repeat(31)}\n`;
  for (const size of [1, 2, 5, 64]) {
    assert.equal(
      await through(text, size),
      'TSV: line 4 is longer than 10 characters (one pair a line is expected)',
    );
  }
  // Nine CJK characters and a tab, ten characters in 28 bytes: within the limit.
  assert.equal(await through('日本語の文章\tです。\n', 4), '日本語の文章\tです。\n');
});

test('a line of more than MAX_SEPARATORS separators is refused; the count starts again each line', async () => {
  const wide = { ...limits, maxLineChars: 1_000_000 };
  const full = `${'\t'.repeat(MAX_SEPARATORS)}\n`;
  assert.equal(await through(full + full, 4096, wide), full + full);
  assert.equal(
    await through(`a\tb\n${'\t'.repeat(MAX_SEPARATORS + 1)}\n`, 4096, wide),
    `TSV: line 2 holds more than ${MAX_SEPARATORS} tabs (one pair a line is expected)`,
  );
});
