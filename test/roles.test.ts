// Every route of the API, as the running app registered it, called by every role: a role the policy
// (src/http/policy.ts) leaves out gets 403; a translator or reviewer asking for a document, segment or project
// not assigned to them gets 404; every call a role is allowed reaches the route (never 401, 403 or 404, never
// a 5xx). A route without a policy entry, or without a request here, fails the walk, so a new route cannot
// ship unchecked.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PUBLIC, policyKey, ROUTE_POLICY } from '../src/http/policy.ts';
import { ROLES, type Role } from '../src/http/principal.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

type Api = ReturnType<typeof client>;

interface Fixture {
  admin: Api;
  memory: number;
  project: number;
  /** Assigned to the translator (translate) and the reviewer (review). */
  docA: number;
  /** Assigned to nobody. */
  docB: number;
  projectB: number;
  segA: number;
  segB: number;
  job: number;
  file: number;
  entry: number;
  /** The import tasks of docA and docB. */
  taskA: number;
  taskB: number;
  /** A memory import's. */
  task: number;
  passwords: Record<Role, string>;
}

interface Request {
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

interface Probe {
  /** A request that reaches the route when the role may call it (may create what it destroys). */
  request(f: Fixture, role: Role, as: Api): Request | Promise<Request>;
  /** The same request on what is not assigned to a translator or reviewer: 404 for them. */
  unassigned?(f: Fixture): Request;
}

const TEXT = 'Hello world.\n\nSecond paragraph here.\n';

async function freshDocument(f: Fixture, project = f.projectB) {
  return f.admin.uploadDocument(project, `doc-${Math.random().toString(36).slice(2)}.txt`, TEXT);
}

let unique = 0;
const name = (prefix: string) => `${prefix}${++unique}`;

/** A machine translation engine the admin adds for a probe (on a closed port: its test fails fast). */
async function probeEngine(f: Fixture): Promise<number> {
  const made = await f.admin.post('/v2/translate/engines', {
    kind: 'apertium',
    settings: { url: 'http://127.0.0.1:9' },
  });
  return made.json().id;
}

/** One request for every route of the API: "METHOD /pattern" as the policy names it. */
const PROBES: Record<string, Probe> = {
  'GET /v2': { request: () => ({ url: '/v2' }) },
  'GET /v2/': { request: () => ({ url: '/v2/' }) },
  'GET /v2/languages': { request: () => ({ url: '/v2/languages' }) },
  'GET /v2/me': { request: () => ({ url: '/v2/me' }) },
  'PUT /v2/me/password': {
    request: (f, role) => ({
      url: '/v2/me/password',
      payload: { current_password: f.passwords[role], new_password: f.passwords[role] },
    }),
  },
  'GET /v2/keys': { request: () => ({ url: '/v2/keys' }) },
  'POST /v2/keys': { request: () => ({ url: '/v2/keys', payload: { name: name('key') } }) },
  'DELETE /v2/keys': {
    async request(_f, _role, as) {
      const created = await as.post('/v2/keys', { name: name('doomed') });
      // A role that may not create keys is refused on DELETE before its id matters.
      return { url: `/v2/keys?id=${created.statusCode === 200 ? created.json().id : 1}` };
    },
  },
  'GET /v2/users': { request: () => ({ url: '/v2/users' }) },
  'POST /v2/users': {
    request: () => ({ url: '/v2/users', payload: { username: name('new'), password: 'password-1234' } }),
  },
  'PUT /v2/users': {
    async request(f) {
      const made = await f.admin.post('/v2/users', { username: name('changed'), password: 'password-1234' });
      return { url: '/v2/users', payload: { id: made.json().id, role: 'reviewer' } };
    },
  },
  'GET /v2/tasks': {
    request: (f) => ({ url: `/v2/tasks?id=${f.taskA}` }),
    // A document's not assigned to them, and a memory's: neither is a translator's or reviewer's to follow.
    unassigned: (f) => ({ url: `/v2/tasks?id=${f.taskB}` }),
  },
  'GET /v2/events': {
    // An event stream never ends: its allowed call is one refused for a missing parameter, after the policy.
    request: () => ({ url: '/v2/events' }),
    unassigned: (f) => ({ url: `/v2/events?document_id=${f.docB}` }),
  },

  'GET /v2/memories': { request: () => ({ url: '/v2/memories' }) },
  'GET /v2/memories/query': { request: (f) => ({ url: `/v2/memories/query?id=${f.memory}&query=Hello` }) },
  'GET /v2/memories/concordance': {
    request: (f) => ({ url: `/v2/memories/concordance?id=${f.memory}&query=Hello` }),
  },
  'POST /v2/translate': {
    request: (f) => ({ url: '/v2/translate', payload: { memory_id: f.memory, source: 'Hello' } }),
  },
  'GET /v2/translate/suggestion': {
    request: (f) => ({ url: `/v2/translate/suggestion?memory_id=${f.memory}&source=Hello` }),
  },
  'GET /v2/translate/repairs': {
    request: (f) => ({ url: `/v2/translate/repairs?memory_id=${f.memory}&source=Hello` }),
  },
  'GET /v2/translate/usage': { request: () => ({ url: '/v2/translate/usage' }) },
  'POST /v2/translate/file': {
    request: (f) => ({ url: `/v2/translate/file?fileId=${f.file}&memoryId=${f.memory}` }),
  },
  'GET /v2/translate/file': { request: () => ({ url: '/v2/translate/file?status=InProgress' }) },
  'GET /v2/translate/files': {
    // A translation of the admin's: its file (ready, or a 409 while in progress) reaches the route.
    async request(f) {
      const started = await f.admin.post(
        `/v2/translate/file?fileId=${f.file}&memoryId=${f.memory}`,
        undefined,
      );
      return { url: `/v2/translate/files?id=${started.json()[0].id}` };
    },
  },
  'GET /v2/translate/engines': { request: () => ({ url: '/v2/translate/engines' }) },
  'POST /v2/translate/engines': {
    request: () => ({
      url: '/v2/translate/engines',
      payload: { kind: 'apertium', label: name('mt'), settings: { url: 'http://127.0.0.1:9' } },
    }),
  },
  'PUT /v2/translate/engines/order': {
    async request(f) {
      const engines = (await f.admin.get('/v2/translate/engines')).json().engines as { id: number }[];
      return { url: '/v2/translate/engines/order', payload: { ids: engines.map((e) => e.id) } };
    },
  },
  'PUT /v2/translate/engines/:engineId': {
    async request(f) {
      return { url: `/v2/translate/engines/${await probeEngine(f)}`, payload: { enabled: false } };
    },
  },
  'DELETE /v2/translate/engines/:engineId': {
    async request(f) {
      return { url: `/v2/translate/engines/${await probeEngine(f)}` };
    },
  },
  'POST /v2/translate/engines/:engineId/test': {
    async request(f) {
      return { url: `/v2/translate/engines/${await probeEngine(f)}/test` };
    },
  },
  'PUT /v2/translate/limit': {
    request: () => ({ url: '/v2/translate/limit', payload: { monthly_limit: null } }),
  },
  'POST /v2/memories': {
    request: () => ({ url: '/v2/memories', payload: { name: name('tm'), srclang: 'en', trglang: 'de' } }),
  },
  'PUT /v2/memories': {
    request: (f) => ({ url: '/v2/memories', payload: { id: f.memory, name: 'Renamed' } }),
  },
  'DELETE /v2/memories': {
    async request(f) {
      const made = await f.admin.post('/v2/memories', { name: name('gone'), srclang: 'en', trglang: 'fr' });
      return { url: `/v2/memories?id=${made.json().id}` };
    },
  },
  'GET /v2/memories/entries': { request: (f) => ({ url: `/v2/memories/entries?id=${f.memory}` }) },
  'GET /v2/memories/entries/history': {
    request: (f) => ({ url: `/v2/memories/entries/history?id=${f.memory}&segment_id=${f.entry}` }),
  },
  'GET /v2/memories/export': { request: (f) => ({ url: `/v2/memories/export?id=${f.memory}` }) },
  'GET /v2/memories/sync': { request: (f) => ({ url: `/v2/memories/sync?id=${f.memory}` }) },
  'PUT /v2/memories/segment': {
    request: (f) => ({
      url: '/v2/memories/segment',
      payload: { id: f.memory, segment_id: f.entry, target: 'Hallo Welt.' },
    }),
  },
  'DELETE /v2/memories/segment': {
    async request(f) {
      const made = await f.admin.post('/v2/segments', {
        memory_id: f.memory,
        source: name('Source '),
        target: 'Ziel',
      });
      return { url: `/v2/memories/segment?id=${f.memory}&segment_id=${made.json().id}` };
    },
  },
  'POST /v2/memories/import': {
    request: (f) => ({
      url: `/v2/memories/import?memory_id=${f.memory}&name=tiny.tmx`,
      payload: Buffer.from(
        '<?xml version="1.0"?><tmx version="1.4"><header srclang="en" datatype="plaintext" segtype="sentence" adminlang="en" o-tmf="t" creationtool="t" creationtoolversion="1"/><body/></tmx>',
      ),
      headers: { 'content-type': 'application/octet-stream' },
    }),
  },
  'GET /v2/memories/terms': { request: (f) => ({ url: `/v2/memories/terms?id=${f.memory}&q=file` }) },
  'GET /v2/memories/terms/candidates': {
    request: (f) => ({ url: `/v2/memories/terms/candidates?id=${f.memory}` }),
  },
  'POST /v2/memories/terms': {
    request: (f) => ({
      url: `/v2/memories/terms?id=${f.memory}`,
      payload: { terms: [{ lang: 'en', text: name('term') }] },
    }),
  },
  'PUT /v2/memories/terms': {
    async request(f) {
      const made = await f.admin.post(`/v2/memories/terms?id=${f.memory}`, {
        terms: [{ lang: 'en', text: name('t') }],
      });
      return {
        url: `/v2/memories/terms?id=${f.memory}&concept_id=${made.json().id}`,
        payload: { terms: [{ lang: 'en', text: name('changed') }] },
      };
    },
  },
  'DELETE /v2/memories/terms': {
    async request(f) {
      const made = await f.admin.post(`/v2/memories/terms?id=${f.memory}`, {
        terms: [{ lang: 'en', text: name('t') }],
      });
      return { url: `/v2/memories/terms?id=${f.memory}&concept_id=${made.json().id}` };
    },
  },
  'POST /v2/memories/terms/import': {
    request: (f) => ({
      url: `/v2/memories/terms/import?memory_id=${f.memory}&name=terms.csv`,
      payload: Buffer.from(`source,target\n${name('word')},Wort\n`),
      headers: { 'content-type': 'application/octet-stream' },
    }),
  },
  'GET /v2/memories/terms/export': { request: (f) => ({ url: `/v2/memories/terms/export?id=${f.memory}` }) },
  'POST /v2/memories/termbase/export': {
    request: (f) => ({ url: `/v2/memories/termbase/export?id=${f.memory}`, payload: {} }),
  },
  'GET /v2/memories/termbase/download': {
    request: (f) => ({ url: `/v2/memories/termbase/download?id=${f.memory}` }),
  },
  'GET /v2/lexicon': {
    request: (f) => ({ url: `/v2/lexicon?memory_id=${f.memory}&srclang=en&trglang=de&query=Hello` }),
  },
  'POST /v2/lexicon': {
    request: (f) => ({
      url: '/v2/lexicon',
      payload: { memory_id: f.memory, source: name('src'), target: 'Ziel' },
    }),
  },

  'GET /v2/projects': {
    request: () => ({ url: '/v2/projects' }),
    unassigned: (f) => ({ url: `/v2/projects?id=${f.projectB}` }),
  },
  'GET /v2/projects/status': {
    request: (f) => ({ url: `/v2/projects/status?id=${f.project}` }),
    unassigned: (f) => ({ url: `/v2/projects/status?id=${f.projectB}` }),
  },
  'GET /v2/projects/segmentation': {
    request: (f) => ({ url: `/v2/projects/segmentation?id=${f.project}` }),
    unassigned: (f) => ({ url: `/v2/projects/segmentation?id=${f.projectB}` }),
  },
  'POST /v2/projects': {
    request: (f) => ({ url: '/v2/projects', payload: { name: name('p'), memory_id: f.memory } }),
  },
  'PUT /v2/projects': {
    request: (f) => ({ url: '/v2/projects', payload: { id: f.project, name: 'Website' } }),
  },
  'DELETE /v2/projects': {
    async request(f) {
      const made = await f.admin.post('/v2/projects', { name: name('gone'), memory_id: f.memory });
      return { url: `/v2/projects?id=${made.json().id}` };
    },
  },
  'PUT /v2/projects/segmentation': {
    request: (f) => ({
      url: `/v2/projects/segmentation?id=${f.projectB}`,
      payload: Buffer.from('not srx'),
      headers: { 'content-type': 'application/octet-stream' },
    }),
  },
  'DELETE /v2/projects/segmentation': {
    request: (f) => ({ url: `/v2/projects/segmentation?id=${f.projectB}` }),
  },
  'GET /v2/projects/quote': { request: (f) => ({ url: `/v2/projects/quote?id=${f.project}` }) },

  'GET /v2/documents': {
    request: (f) => ({ url: `/v2/documents?id=${f.docA}` }),
    unassigned: (f) => ({ url: `/v2/documents?id=${f.docB}` }),
  },
  'GET /v2/documents/segments': {
    request: (f) => ({ url: `/v2/documents/segments?id=${f.docA}` }),
    unassigned: (f) => ({ url: `/v2/documents/segments?id=${f.docB}` }),
  },
  'GET /v2/documents/words': {
    request: (f) => ({ url: `/v2/documents/words?id=${f.docA}` }),
    unassigned: (f) => ({ url: `/v2/documents/words?id=${f.docB}` }),
  },
  'GET /v2/documents/qa': {
    request: (f) => ({ url: `/v2/documents/qa?id=${f.docA}` }),
    unassigned: (f) => ({ url: `/v2/documents/qa?id=${f.docB}` }),
  },
  'GET /v2/documents/terms': {
    request: (f) => ({ url: `/v2/documents/terms?id=${f.docA}` }),
    unassigned: (f) => ({ url: `/v2/documents/terms?id=${f.docB}` }),
  },
  'GET /v2/documents/files': {
    request: (f) => ({ url: `/v2/documents/files?id=${f.docA}&is_xliff=true` }),
    unassigned: (f) => ({ url: `/v2/documents/files?id=${f.docB}` }),
  },
  'POST /v2/documents/replace': {
    request: (f) => ({
      url: '/v2/documents/replace',
      payload: { id: f.docA, find: 'zzz', replace: 'y', dry_run: true },
    }),
    unassigned: (f) => ({
      url: '/v2/documents/replace',
      payload: { id: f.docB, find: 'zzz', replace: 'y', dry_run: true },
    }),
  },
  'POST /v2/documents/replace/undo': {
    // A batch of its own for each call: the second segment's target swapped between two words.
    async request(f) {
      const [from, to] = ++unique % 2 ? ['Absatz', 'Abschnitt'] : ['Abschnitt', 'Absatz'];
      await f.admin.put('/v2/segments', { id: f.segA + 1, target: `Zweiter ${from}.` });
      const res = await f.admin.post('/v2/documents/replace', { id: f.docA, find: from, replace: to });
      assert.equal(res.statusCode, 200, res.body);
      return { url: '/v2/documents/replace/undo', payload: { id: f.docA, batch_id: res.json().batch_id } };
    },
    unassigned: (f) => ({ url: '/v2/documents/replace/undo', payload: { id: f.docB, batch_id: 1 } }),
  },
  'PUT /v2/documents': { request: (f) => ({ url: '/v2/documents', payload: { id: f.docA, name: 'a.txt' } }) },
  'DELETE /v2/documents': {
    async request(f) {
      return { url: `/v2/documents?id=${await freshDocument(f)}` };
    },
  },
  'POST /v2/documents/files': {
    request: (f) => ({
      url: '/v2/documents/files',
      payload: Buffer.from(TEXT),
      headers: {
        'content-type': 'application/octet-stream',
        'lilt-api': JSON.stringify({ name: `${name('up')}.txt`, project_id: f.projectB }),
      },
    }),
  },
  'POST /v2/documents/pretranslate': {
    async request(f) {
      return { url: '/v2/documents/pretranslate', payload: { id: [await freshDocument(f)] } };
    },
  },

  'GET /v2/segments': {
    request: (f) => ({ url: `/v2/segments?id=${f.segA}` }),
    unassigned: (f) => ({ url: `/v2/segments?id=${f.segB}` }),
  },
  'POST /v2/segments': {
    request: (f) => ({ url: '/v2/segments', payload: { document_id: f.docA, source: 'Added.' } }),
    unassigned: (f) => ({ url: '/v2/segments', payload: { document_id: f.docB, source: 'Added.' } }),
  },
  'PUT /v2/segments': {
    request: (f) => ({ url: '/v2/segments', payload: { id: f.segA, target: 'Hallo Welt.' } }),
    unassigned: (f) => ({ url: '/v2/segments', payload: { id: f.segB, target: 'Hallo Welt.' } }),
  },
  'GET /v2/segments/history': {
    request: (f) => ({ url: `/v2/segments/history?id=${f.segA}` }),
    unassigned: (f) => ({ url: `/v2/segments/history?id=${f.segB}` }),
  },
  'POST /v2/segments/restore': {
    request: (f) => ({ url: '/v2/segments/restore', payload: { id: f.segA, version: 1 } }),
    unassigned: (f) => ({ url: '/v2/segments/restore', payload: { id: f.segB, version: 1 } }),
  },
  'POST /v2/segments/join': {
    // The last segment has none after it: refused as not joinable, after the checks of access.
    request: (f) => ({ url: '/v2/segments/join', payload: { id: f.segA + 1 } }),
    unassigned: (f) => ({ url: '/v2/segments/join', payload: { id: f.segB } }),
  },
  'POST /v2/segments/split': {
    request: (f) => ({ url: '/v2/segments/split', payload: { id: f.segA, offset: 0 } }),
    unassigned: (f) => ({ url: '/v2/segments/split', payload: { id: f.segB, offset: 0 } }),
  },
  'DELETE /v2/segments': {
    async request(f) {
      const made = await f.admin.post('/v2/segments', { document_id: f.docB, source: name('Doomed ') });
      return { url: `/v2/segments?id=${made.json().id}` };
    },
  },

  'GET /v2/files': { request: () => ({ url: '/v2/files' }) },
  'POST /v2/files': {
    request: () => ({
      url: `/v2/files?name=${name('f')}.txt`,
      payload: Buffer.from(TEXT),
      headers: { 'content-type': 'application/octet-stream' },
    }),
  },
  'DELETE /v2/files': {
    async request(f) {
      const made = await f.admin.upload(`/v2/files?name=${name('gone')}.txt`, TEXT);
      return { url: `/v2/files?id=${made.json().id}` };
    },
  },
  'GET /v2/files/download': { request: (f) => ({ url: `/v2/files/download?id=${f.file}` }) },
  'POST /v2/files/labels': {
    request: (f) => ({ url: `/v2/files/labels?id=${f.file}`, payload: { name: 'walk' } }),
  },
  'DELETE /v2/files/labels': { request: (f) => ({ url: `/v2/files/labels?id=${f.file}&name=walk` }) },
  'GET /v2/jobs': { request: () => ({ url: '/v2/jobs' }) },
  'POST /v2/jobs': {
    request: (f) => ({
      url: '/v2/jobs',
      payload: {
        name: name('job'),
        fileIds: [f.file],
        srcLang: 'en',
        languagePairs: [{ trgLang: 'de', memoryId: f.memory }],
      },
    }),
  },
  'GET /v2/jobs/:jobId': { request: (f) => ({ url: `/v2/jobs/${f.job}` }) },
  'PUT /v2/jobs/:jobId': { request: (f) => ({ url: `/v2/jobs/${f.job}`, payload: { name: 'Job' } }) },
  'DELETE /v2/jobs/:jobId': {
    async request(f) {
      const made = await f.admin.post('/v2/jobs', {
        name: name('gone'),
        fileIds: [f.file],
        srcLang: 'en',
        languagePairs: [{ trgLang: 'de', memoryId: f.memory }],
      });
      return { url: `/v2/jobs/${made.json().id}` };
    },
  },
  'POST /v2/jobs/:jobId/stats': { request: (f) => ({ url: `/v2/jobs/${f.job}/stats`, payload: {} }) },
  'GET /v2/jobs/:jobId/stats.csv': { request: (f) => ({ url: `/v2/jobs/${f.job}/stats.csv` }) },
  'POST /v2/jobs/:jobId/archive': { request: (f) => ({ url: `/v2/jobs/${f.job}/archive`, payload: {} }) },
  'POST /v2/jobs/:jobId/unarchive': { request: (f) => ({ url: `/v2/jobs/${f.job}/unarchive`, payload: {} }) },
  'POST /v2/jobs/:jobId/deliver': { request: (f) => ({ url: `/v2/jobs/${f.job}/deliver`, payload: {} }) },
  'GET /v2/jobs/:jobId/download': { request: (f) => ({ url: `/v2/jobs/${f.job}/download` }) },
  'POST /v2/jobs/:jobId/reactivate': {
    request: (f) => ({ url: `/v2/jobs/${f.job}/reactivate`, payload: {} }),
  },
  'GET /v2/jobs/:jobId/export': { request: (f) => ({ url: `/v2/jobs/${f.job}/export?type=files` }) },
  'GET /v2/analysis/weights': { request: () => ({ url: '/v2/analysis/weights' }) },
  'PUT /v2/analysis/weights': { request: () => ({ url: '/v2/analysis/weights', payload: { reset: true } }) },

  'GET /v2/workflows/templates': { request: () => ({ url: '/v2/workflows/templates' }) },
  'PUT /v2/documents/share': {
    request: (f) => ({
      url: '/v2/documents/share',
      payload: { id: f.docA, email: 'tina@example.com', is_translator: true },
    }),
  },
  'POST /v2/documents/done/translation': {
    // Unconfirmed segments: refused by the check, after access.
    request: (f) => ({
      url: '/v2/documents/done/translation',
      payload: { documentIds: [f.docA], isDone: true },
    }),
    unassigned: (f) => ({ url: '/v2/documents/done/translation', payload: { documentIds: [f.docB] } }),
  },
  'POST /v2/documents/done/review': {
    request: (f) => ({ url: '/v2/documents/done/review', payload: { documentIds: [f.docA], isDone: true } }),
    unassigned: (f) => ({ url: '/v2/documents/done/review', payload: { documentIds: [f.docB] } }),
  },
  'POST /v2/documents/done/unlock': {
    request: (f) => ({ url: '/v2/documents/done/unlock', payload: { documentIds: [f.docA] } }),
  },
  'POST /v2/segments/review/unlock': {
    request: (f) => ({ url: '/v2/segments/review/unlock', payload: { segmentIds: [f.segA] } }),
  },
  'POST /v2/segments/lock': {
    request: (f) => ({
      url: '/v2/segments/lock',
      payload: { document_id: f.docA, segment_ids: [f.segA], locked: false },
    }),
  },

  'GET /v2/comments': {
    request: (f) => ({ url: `/v2/comments?document_id=${f.docA}` }),
    unassigned: (f) => ({ url: `/v2/comments?document_id=${f.docB}` }),
  },
  'POST /v2/comments': {
    request: (f) => ({
      url: `/v2/comments?document_id=${f.docA}&segment_id=${f.segA}`,
      payload: { text: 'Is this right?' },
    }),
    unassigned: (f) => ({
      url: `/v2/comments?document_id=${f.docB}&segment_id=${f.segB}`,
      payload: { text: 'Is this right?' },
    }),
  },
  'PUT /v2/comments': {
    // Only its author edits a comment: each role edits one of its own.
    async request(f, _role, as) {
      const made = await as.post(`/v2/comments?document_id=${f.docA}&segment_id=${f.segA}`, {
        text: 'Typo?',
      });
      assert.equal(made.statusCode, 201, made.body);
      return {
        url: `/v2/comments?comment_id=${made.json().id}&document_id=${f.docA}`,
        payload: { text: 'Typo.' },
      };
    },
  },
  'DELETE /v2/comments': {
    async request(f, _role, as) {
      const made = await as.post(`/v2/comments?document_id=${f.docA}`, { text: 'On the whole document.' });
      assert.equal(made.statusCode, 201, made.body);
      return { url: `/v2/comments?comment_id=${made.json().id}` };
    },
  },
  'GET /v2/notifications': { request: () => ({ url: '/v2/notifications' }) },
  'POST /v2/notifications/read': { request: () => ({ url: '/v2/notifications/read', payload: {} }) },
  'POST /v2/segments/reject': {
    async request(f) {
      await f.admin.put('/v2/segments', { id: f.segA, target: 'Hallo Welt.', is_confirmed: true });
      return { url: '/v2/segments/reject', payload: { id: f.segA, text: 'Please check the greeting.' } };
    },
    unassigned: (f) => ({ url: '/v2/segments/reject', payload: { id: f.segB, text: 'No.' } }),
  },

  'GET /v2/quality/annotations': {
    request: (f) => ({ url: `/v2/quality/annotations?document_id=${f.docA}` }),
    unassigned: (f) => ({ url: `/v2/quality/annotations?document_id=${f.docB}` }),
  },
  'POST /v2/quality/annotations': {
    request: (f) => ({
      url: '/v2/quality/annotations',
      payload: { segment_id: f.segA, category: 'accuracy', severity: 'minor' },
    }),
    unassigned: (f) => ({
      url: '/v2/quality/annotations',
      payload: { segment_id: f.segB, category: 'accuracy', severity: 'minor' },
    }),
  },
  'PUT /v2/quality/annotations': {
    async request(f) {
      const made = await f.admin.post('/v2/quality/annotations', {
        segment_id: f.segA,
        category: 'style',
        severity: 'minor',
      });
      return { url: '/v2/quality/annotations', payload: { id: made.json().id, severity: 'major' } };
    },
  },
  'DELETE /v2/quality/annotations': {
    async request(f) {
      const made = await f.admin.post('/v2/quality/annotations', {
        segment_id: f.segA,
        category: 'style',
        severity: 'minor',
      });
      return { url: `/v2/quality/annotations?id=${made.json().id}` };
    },
  },
  'GET /v2/quality/score': {
    request: (f) => ({ url: `/v2/quality/score?document_id=${f.docA}` }),
    unassigned: (f) => ({ url: `/v2/quality/score?document_id=${f.docB}` }),
  },
  'GET /v2/quality/report': {
    request: (f) => ({ url: `/v2/quality/report?document_id=${f.docA}` }),
    unassigned: (f) => ({ url: `/v2/quality/report?document_id=${f.docB}` }),
  },
  'GET /v2/quality/report.csv': {
    request: (f) => ({ url: `/v2/quality/report.csv?document_id=${f.docA}` }),
    unassigned: (f) => ({ url: `/v2/quality/report.csv?document_id=${f.docB}` }),
  },
  'GET /v2/quality/settings': {
    request: (f) => ({ url: `/v2/quality/settings?project_id=${f.project}` }),
    unassigned: (f) => ({ url: `/v2/quality/settings?project_id=${f.projectB}` }),
  },
  'PUT /v2/quality/settings': {
    request: (f) => ({ url: '/v2/quality/settings', payload: { project_id: f.project, threshold: 10 } }),
  },
  'GET /v2/review/baselines': {
    request: (f) => ({ url: `/v2/review/baselines?document_id=${f.docA}` }),
    unassigned: (f) => ({ url: `/v2/review/baselines?document_id=${f.docB}` }),
  },
  'GET /v2/review/progress': { request: (f) => ({ url: `/v2/review/progress?project_id=${f.project}` }) },
};

function methodOf(key: string) {
  return key.slice(0, key.indexOf(' '));
}

async function send(api: Api, key: string, req: Request) {
  const method = methodOf(key) as 'GET' | 'POST' | 'PUT' | 'DELETE';
  return api.inject(method, req.url, req.payload, req.headers);
}

for (const target of await storeTargets()) {
  describe(`roles and the route policy on ${target.name}`, () => {
    let ctx: TestContext;
    let f: Fixture;
    const as = {} as Record<Role, Api>;
    before(async () => {
      ctx = await createContext(target);
      const admin = client(ctx.app, ctx.adminKey);
      const passwords = {
        admin: '',
        project_manager: 'pm-password-1',
        translator: 'tina-password-1',
        reviewer: 'rex-password-1',
      } satisfies Record<Role, string>;
      as.admin = admin;
      as.project_manager = client(
        ctx.app,
        await userKey(ctx, { username: 'pam', password: passwords.project_manager, role: 'project_manager' }),
      );
      as.translator = client(
        ctx.app,
        await userKey(ctx, {
          username: 'tina',
          password: passwords.translator,
          role: 'translator',
          email: 'tina@example.com',
        }),
      );
      as.reviewer = client(
        ctx.app,
        await userKey(ctx, {
          username: 'rex',
          password: passwords.reviewer,
          role: 'reviewer',
          email: 'rex@example.com',
        }),
      );
      const memory = (await admin.post('/v2/memories', { name: 'TM', srclang: 'en', trglang: 'de' })).json()
        .id;
      const project = (
        await admin.post('/v2/projects', { name: 'Site', memory_id: memory, workflow_template_id: 2 })
      ).json().id;
      const projectB = (await admin.post('/v2/projects', { name: 'Other', memory_id: memory })).json().id;
      const docA = await admin.uploadDocument(project, 'a.txt', TEXT);
      const docB = await admin.uploadDocument(projectB, 'b.txt', TEXT);
      for (const [email, flag] of [
        ['tina@example.com', 'is_translator'],
        ['rex@example.com', 'is_reviewer'],
      ]) {
        const res = await admin.put('/v2/documents/share', { id: docA, email, [flag]: true });
        assert.equal(res.statusCode, 200, res.body);
      }
      const segs = async (id: number) => (await admin.get(`/v2/documents/segments?id=${id}`)).json().segments;
      const file = (await admin.upload('/v2/files?name=source.txt', TEXT)).json().id;
      const job = (
        await admin.post('/v2/jobs', {
          name: 'Job',
          fileIds: [file],
          srcLang: 'en',
          languagePairs: [{ trgLang: 'de', memoryId: memory }],
        })
      ).json().id;
      const entry = (
        await admin.post('/v2/segments', { memory_id: memory, source: 'Hello world.', target: 'Hallo Welt.' })
      ).json().id;
      const imported = await admin.upload(
        `/v2/memories/import?memory_id=${memory}&name=tiny.tmx`,
        '<?xml version="1.0"?><tmx version="1.4"><header srclang="en" datatype="plaintext" segtype="sentence" adminlang="en" o-tmf="t" creationtool="t" creationtoolversion="1"/><body/></tmx>',
      );
      assert.equal(imported.statusCode, 200, imported.body);
      const importOf = async (doc: number) =>
        Number(
          (
            await ctx.db.get<{ id: number }>(
              "SELECT MAX(id) AS id FROM tasks WHERE document_id = ? AND type = 'document_import'",
              [doc],
            )
          )?.id,
        );
      f = {
        taskA: await importOf(docA),
        taskB: await importOf(docB),
        task: imported.json().task_id,
        admin,
        memory,
        project,
        projectB,
        docA,
        docB,
        segA: (await segs(docA))[0].id,
        segB: (await segs(docB))[0].id,
        job,
        file,
        entry,
        passwords,
      };
    });
    after(() => ctx?.close());

    test('every route of the API has a policy entry and a probe here, and the policy names no other route', () => {
      const registered = new Set(ctx.app.apiRoutes.map((r) => policyKey(r.method, r.url)));
      const missingPolicy = [...registered].filter((k) => ROUTE_POLICY[k] === undefined);
      assert.deepEqual(missingPolicy, [], 'routes without a policy entry in src/http/policy.ts');
      const stale = Object.keys(ROUTE_POLICY).filter((k) => !registered.has(k));
      assert.deepEqual(stale, [], 'policy entries for routes that do not exist');
      const unprobed = [...registered].filter((k) => ROUTE_POLICY[k] !== PUBLIC && !PROBES[k]);
      assert.deepEqual(unprobed, [], 'routes without a probe in test/roles.test.ts');
      assert.ok(registered.size > 70, `only ${registered.size} routes seen`);
    });

    test('a route added without a policy entry is refused to every role, admins included', async () => {
      const other = await createContext(target, {}, (app) => {
        app.get('/v2/unlisted', async () => ({ reached: true }));
      });
      try {
        assert.ok(other.app.apiRoutes.some((r) => r.url === '/v2/unlisted'));
        const res = await client(other.app, other.adminKey).get('/v2/unlisted');
        assert.equal(res.statusCode, 403, res.body);
        assert.match(res.json().message, /not open to any role/);
      } finally {
        await other.close();
      }
    });

    for (const role of ROLES) {
      test(`every route called as ${role}: 403 where the policy leaves the role out, reached where it does not`, async () => {
        const failures: string[] = [];
        let allowed = 0;
        let refused = 0;
        for (const route of ctx.app.apiRoutes) {
          const key = policyKey(route.method, route.url);
          const policy = ROUTE_POLICY[key];
          if (policy === PUBLIC) continue;
          const probe = PROBES[key];
          const res = await send(as[role], key, await probe.request(f, role, as[role]));
          const may = policy.includes(role);
          if (!may) {
            refused++;
            if (res.statusCode !== 403)
              failures.push(`${key}: ${res.statusCode}, expected 403 (${res.body.slice(0, 120)})`);
            else if (res.json().code !== 'FORBIDDEN')
              failures.push(`${key}: 403 with code ${res.json().code}`);
          } else {
            allowed++;
            if ([401, 403, 404].includes(res.statusCode) || res.statusCode >= 500) {
              failures.push(`${key}: ${res.statusCode} (${res.body.slice(0, 160)})`);
            }
          }
        }
        assert.deepEqual(failures, []);
        assert.ok(allowed > 0);
        if (role === 'admin') assert.equal(refused, 0);
        else assert.ok(refused > 0, `${role} was refused nothing`);
      });
    }

    for (const role of ['translator', 'reviewer'] as const) {
      test(`${role}: every route given a document, segment or project not assigned to them answers 404`, async () => {
        const failures: string[] = [];
        let probed = 0;
        for (const [key, probe] of Object.entries(PROBES)) {
          if (!probe.unassigned) continue;
          const policy = ROUTE_POLICY[key];
          if (policy === PUBLIC || !policy.includes(role)) continue;
          probed++;
          const res = await send(as[role], key, probe.unassigned(f));
          if (res.statusCode !== 404) failures.push(`${key}: ${res.statusCode} (${res.body.slice(0, 160)})`);
        }
        assert.deepEqual(failures, []);
        assert.ok(probed >= 15, `only ${probed} routes probed`);
      });
    }

    test('a translator lists only the projects and documents assigned to them; a manager sees all', async () => {
      const mine = (await as.translator.get('/v2/projects')).json();
      assert.deepEqual(
        mine.map((p: { id: number }) => p.id),
        [f.project],
      );
      assert.deepEqual(
        mine[0].document.map((d: { id: number }) => d.id),
        [f.docA],
      );
      const all = (await as.project_manager.get('/v2/projects')).json().map((p: { id: number }) => p.id);
      assert.ok(all.includes(f.project) && all.includes(f.projectB));
      const doc = (await as.translator.get(`/v2/documents?id=${f.docA}`)).json();
      assert.equal(doc.translator_email, 'tina@example.com');
      assert.equal(doc.reviewer_email, 'rex@example.com');
      assert.equal(doc.stage, 'translate');
    });

    test("a translator neither reads nor changes a memory's entries through /v2/segments", async () => {
      assert.equal((await as.translator.get(`/v2/tasks?id=${f.task}`)).statusCode, 404);
      assert.equal((await as.project_manager.get(`/v2/tasks?id=${f.task}`)).statusCode, 200);
      assert.equal((await as.translator.get(`/v2/segments?id=${f.entry}`)).statusCode, 404);
      const edit = await as.translator.put('/v2/segments', { id: f.entry, target: 'Übernommen.' });
      assert.equal(edit.statusCode, 404);
      const add = await as.translator.post('/v2/segments', {
        memory_id: f.memory,
        source: 'New.',
        target: 'Neu.',
      });
      assert.equal(add.statusCode, 403);
      assert.match(add.json().message, /project_manager/);
      assert.equal((await as.project_manager.get(`/v2/segments?id=${f.entry}`)).statusCode, 200);
    });

    test('roles: member is accepted as project_manager on input; an unknown role is a 400 naming role', async () => {
      const made = await as.admin.post('/v2/users', {
        username: 'olduser',
        password: 'password-1234',
        role: 'member',
      });
      assert.equal(made.statusCode, 200, made.body);
      assert.equal(made.json().role, 'project_manager');
      const bad = await as.admin.post('/v2/users', {
        username: 'baduser',
        password: 'password-1234',
        role: 'boss',
      });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().message, /role/);
      const me = (await as.reviewer.get('/v2/me')).json();
      assert.equal(me.role, 'reviewer');
    });
    test('a translator never marks a segment reviewed, even in their own stage; a reviewer and a manager do', async () => {
      const doc = await freshDocument(f, f.project);
      for (const [email, flag] of [
        ['tina@example.com', 'is_translator'],
        ['rex@example.com', 'is_reviewer'],
      ]) {
        assert.equal(
          (await f.admin.put('/v2/documents/share', { id: doc, email, [flag]: true })).statusCode,
          200,
        );
      }
      const [seg] = (await f.admin.get(`/v2/documents/segments?id=${doc}`)).json().segments;
      const mine = await as.translator.put('/v2/segments', {
        id: seg.id,
        target: 'Hallo Welt.',
        is_reviewed: true,
      });
      assert.equal(mine.statusCode, 403, mine.body);
      assert.match(mine.json().message, /is_reviewed/);
      assert.equal((await f.admin.get(`/v2/segments?id=${seg.id}`)).json().is_reviewed, false);
      const confirmed = await as.translator.put('/v2/segments', {
        id: seg.id,
        target: 'Hallo Welt.',
        is_confirmed: true,
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      const reviewed = await as.project_manager.put('/v2/segments', { id: seg.id, is_reviewed: true });
      assert.equal(reviewed.statusCode, 200, reviewed.body);
      assert.equal(reviewed.json().is_reviewed, true);
    });
  });
}
