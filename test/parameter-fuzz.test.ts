// Every endpoint's parameters, fed hostile and odd values one at a time: the answer is never a 5xx, and every
// error body keeps the contract's {message, code} shape. The routes come from the OpenAPI document, so a new
// endpoint is fuzzed without being listed here.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

const ODD_TEXT = [
  '',
  ' ',
  '-',
  '--help',
  'e-mail',
  'built-in',
  '%',
  '%s %d %1$s',
  '\\',
  '[',
  '(',
  ')*+?{}|^$./',
  '..',
  '../etc/passwd',
  '\u0000',
  '\u0085\u2028\u202e',
  '\uffff',
  '\ud800',
  '🙂',
  '<g id="1">',
  '</g>',
  '&amp;',
  "'; DROP TABLE memories; --",
  'x'.repeat(6000),
  'null',
  'undefined',
  '[]',
  '{}',
  'true',
];
const ODD_NUMBERS = [
  '-1',
  '0',
  '1.5',
  '1e309',
  'NaN',
  'Infinity',
  '99999999999999999999',
  '0x10',
  ' 7',
  '7,8',
];

/** Values of every JSON type for body fields. */
const ODD_JSON: unknown[] = [
  null,
  -1,
  0,
  1.5,
  1e300,
  true,
  [],
  [1, 2],
  {},
  { nested: { deeper: [] } },
  ...ODD_TEXT,
];

interface Operation {
  method: string;
  path: string;
  query: string[];
  body: string[];
}

function operations(doc: {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string }[];
        requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
      }
    >
  >;
}): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const json = op.requestBody?.content?.['application/json']?.schema?.properties;
      out.push({ method: method.toUpperCase(), path, query, body: Object.keys(json ?? {}) });
    }
  }
  return out;
}

for (const target of await storeTargets()) {
  describe(`parameter fuzzing on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    /** A valid value for each parameter name, so that one parameter at a time is odd. */
    const valid: Record<string, string | number> = {};
    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
      const memory = (await api.post('/v2/memories', { name: 'Fuzz', srclang: 'en', trglang: 'de' })).json();
      const entry = (
        await api.post('/v2/segments', {
          memory_id: memory.id,
          source: 'Open the e-mail.',
          target: 'Öffnen.',
        })
      ).json();
      const project = (await api.post('/v2/projects', { name: 'Fuzz', memory_id: memory.id })).json();
      const doc = (
        await api.upload('/v2/documents/files', 'Open the e-mail. Save it.\n', {
          'lilt-api': JSON.stringify({ name: 'fuzz.txt', project_id: project.id }),
        })
      ).json();
      Object.assign(valid, {
        id: memory.id,
        memory_id: memory.id,
        project_id: project.id,
        document_id: doc.id,
        segment_id: entry.id,
        query: 'open',
        name: 'fuzz.tmx',
        n: 5,
      });
    });
    after(() => ctx.close());

    test('no parameter value of any endpoint makes a 5xx or leaves the error contract', async () => {
      const doc = (await api.get('/v2/openapi.json')).json();
      const ops = operations(doc);
      assert.ok(ops.length > 20, `only ${ops.length} operations found`);
      const failures: string[] = [];
      let requests = 0;
      const check = async (label: string, res: Awaited<ReturnType<typeof api.get>>) => {
        requests++;
        if (res.statusCode >= 500) failures.push(`${label} → ${res.statusCode} ${res.body.slice(0, 200)}`);
        else if (res.statusCode >= 400 && res.statusCode !== 401) {
          const body = res.json() as { message?: unknown; code?: unknown };
          if (typeof body.message !== 'string' || typeof body.code !== 'string') {
            failures.push(`${label} → ${res.statusCode} outside the contract: ${res.body.slice(0, 200)}`);
          }
        }
      };
      for (const op of ops) {
        // Deleting the fixtures would make later operations meaningless: DELETEs get no valid-looking ids.
        const values = op.method === 'DELETE' ? ODD_TEXT : [...ODD_TEXT, ...ODD_NUMBERS];
        for (const param of op.query) {
          for (const value of values) {
            const qs = new URLSearchParams();
            for (const other of op.query)
              if (other !== param && valid[other] !== undefined) qs.set(other, String(valid[other]));
            qs.set(param, value);
            const url = `${op.path}?${qs}`;
            const res = await ctx.app.inject({
              method: op.method as 'GET',
              url,
              headers: {
                authorization: `Bearer ${ctx.adminKey}`,
                'content-type': 'application/octet-stream',
              },
              ...(op.method === 'POST' || op.method === 'PUT' ? { payload: 'x' } : {}),
            });
            await check(`${op.method} ${op.path} ${param}=${JSON.stringify(value).slice(0, 40)}`, res);
          }
        }
        for (const field of op.body) {
          for (const value of ODD_JSON) {
            const payload: Record<string, unknown> = {};
            for (const other of op.body)
              if (other !== field && valid[other] !== undefined) payload[other] = valid[other];
            payload[field] = value;
            const res = await ctx.app.inject({
              method: op.method as 'POST',
              url: op.path,
              headers: { authorization: `Bearer ${ctx.adminKey}` },
              payload,
            });
            await check(`${op.method} ${op.path} body.${field}=${JSON.stringify(value).slice(0, 40)}`, res);
          }
        }
      }
      assert.deepEqual(failures, [], `${failures.length} of ${requests} requests failed`);
    });
  });
}
