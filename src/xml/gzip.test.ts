import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { FormatError } from '../errors.ts';
import { gunzipIfCompressed } from './gzip.ts';

async function* chunks(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function collect(input: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const c of input) parts.push(c);
  return Buffer.concat(parts);
}

const TEXT = Buffer.from('<tmx version="1.4">'.repeat(5000));

describe('gunzipIfCompressed', () => {
  it('passes bytes that are not gzip through unchanged', async () => {
    assert.deepEqual(await collect(gunzipIfCompressed(chunks(TEXT, 1))), TEXT);
    assert.deepEqual(await collect(gunzipIfCompressed(chunks(Buffer.from([0x1f]), 1))), Buffer.from([0x1f]));
    assert.deepEqual(await collect(gunzipIfCompressed(chunks(Buffer.alloc(0), 1))), Buffer.alloc(0));
  });

  it('inflates gzip, even when the magic bytes arrive in separate chunks', async () => {
    const gz = gzipSync(TEXT);
    assert.deepEqual(await collect(gunzipIfCompressed(chunks(gz, 1))), TEXT);
    assert.deepEqual(await collect(gunzipIfCompressed(Readable.from([gz]))), TEXT);
  });

  it('inflates concatenated gzip members', async () => {
    const gz = Buffer.concat([gzipSync(Buffer.from('one ')), gzipSync(Buffer.from('two'))]);
    assert.equal((await collect(gunzipIfCompressed(chunks(gz, 3)))).toString(), 'one two');
  });

  it('reports corrupt or truncated gzip as a FormatError', async () => {
    const gz = gzipSync(TEXT);
    const truncated = gz.subarray(0, gz.length - 20);
    await assert.rejects(collect(gunzipIfCompressed(chunks(truncated, 100))), (err: Error) => {
      assert.ok(err instanceof FormatError);
      assert.equal(err.message, 'Corrupt gzip data: unexpected end of file');
      return true;
    });
    const garbled = Buffer.from(gz);
    garbled.fill(0x55, 10, 40);
    await assert.rejects(collect(gunzipIfCompressed(chunks(garbled, 100))), FormatError);
  });

  it('stops reading its source when the consumer stops early', async () => {
    let closed = false;
    async function* source() {
      try {
        yield* chunks(gzipSync(TEXT), 10);
      } finally {
        closed = true;
      }
    }
    for await (const _ of gunzipIfCompressed(source())) break;
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(closed, true);
  });
});
