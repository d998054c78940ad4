// Hostile input through HTTP — JSON bodies nested a million deep, segments whose text nests thousands of
// plurals: the answer is a 400 naming the field, or the checks' answer, never a 500 from a stack that ran out.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

const [target] = await storeTargets();

describe(`hostile input on ${target.name}`, () => {
  let ctx: TestContext;
  let api: ReturnType<typeof client>;
  let projectId: number;
  before(async () => {
    ctx = await createContext(target);
    api = client(ctx.app, ctx.adminKey);
    const memoryId = (await api.post('/v2/memories', { name: 'TM', srclang: 'en', trglang: 'de' })).json().id;
    projectId = (await api.post('/v2/projects', { name: 'Site', memory_id: memoryId })).json().id;
  });
  after(() => ctx.close());

  async function segmentsOf(content: string) {
    const id = await api.uploadDocument(projectId, 'deep.txt', content);
    const page = await api.get(`/v2/documents/segments?id=${id}&limit=10`);
    return { id, segments: page.json().segments as { id: number; source: string }[] };
  }

  test('a source of 3,000 nested plurals: a confirmed target is checked, the QA report answers', async () => {
    // A paragraph of a plain-text file is one segment however long: its placeables were read by recursing
    // into each plural's branches, one level per plural, until V8's stack ran out (a 500, or worse).
    const depth = 3000;
    const deep = `${'{n, plural, one {'.repeat(depth)}x${'}}'.repeat(depth)}`;
    const doc = await segmentsOf(`${deep}\n`);
    assert.equal(doc.segments.length, 1);
    assert.equal(doc.segments[0].source, deep);
    const res = await api.put('/v2/segments', { id: doc.segments[0].id, target: 'x', is_confirmed: true });
    assert.equal(res.statusCode, 200, res.body);
    const qa = await api.get(`/v2/documents/qa?id=${doc.id}`);
    assert.equal(qa.statusCode, 200, qa.body);
    const codes = qa.json().issues.map((i: { code: string }) => i.code);
    assert.ok(codes.includes('PLACEHOLDER_MISSING'), codes.join());
  });

  test('a JSON body nested past 64 levels: 400 naming its top-level field, on any route; 63 levels pass', async () => {
    const post = (url: string, method: 'POST' | 'PUT', payload: string) =>
      ctx.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${ctx.adminKey}`, 'content-type': 'application/json' },
        payload,
      });
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    // A million levels (2 MB): the NUL guard walked bodies by recursion and ran out of stack (a 500).
    for (const [url, method, body, field] of [
      [
        '/v2/memories',
        'POST',
        `{"name":"M","srclang":"en","trglang":"de","extra":${nested(1_000_000)}}`,
        'extra',
      ],
      ['/v2/memories', 'POST', `{"name":${nested(1_000_000)},"srclang":"en","trglang":"de"}`, 'name'],
      ['/v2/segments', 'PUT', `{"id":1,"target":"x","a":{"b":${nested(100)}}}`, 'a'],
    ] as const) {
      const res = await post(url, method, body);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().message, `Field "${field}" is nested more than 64 levels deep`);
    }
    const body = await post('/v2/memories', 'POST', `[${nested(100)}]`);
    assert.equal(body.statusCode, 400, body.body);
    assert.equal(body.json().message, 'The request body is nested more than 64 levels deep');
    const ok = await post(
      '/v2/memories',
      'POST',
      `{"name":"M","srclang":"en","trglang":"de","extra":${nested(63)}}`,
    );
    assert.equal(ok.statusCode, 200, ok.body);
    // The NUL guard it belongs to still names the field where a NUL is, in order.
    const nul = await post(
      '/v2/memories',
      'POST',
      '{"name":"M","srclang":"en","trglang":"de","x":[["a", "b\\u0000"]]}',
    );
    assert.equal(nul.statusCode, 400, nul.body);
    assert.equal(nul.json().message, 'Field "x.0.1" must not contain the NUL character');
  });
});
