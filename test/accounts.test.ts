// Accounts through app.inject on every store: users and keys of an organization, roles, tenancy.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { basic, createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

for (const target of await storeTargets()) {
  describe(`accounts on ${target.name}`, () => {
    let ctx: TestContext;
    let memberKey: string;
    let otherOrgKey: string;
    before(async () => {
      ctx = await createContext(target);
      memberKey = await userKey(ctx, { username: 'maria', password: 'correct horse', role: 'member' });
      otherOrgKey = await userKey(ctx, {
        username: 'olaf',
        password: 'other org pass',
        role: 'admin',
        organization: 'acme',
      });
    });
    after(() => ctx.close());

    const get = (url: string, headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'GET', url, headers });

    test("another organization's resources are 404, not 403", async () => {
      const me = (await get('/v2/me', { authorization: `Bearer ${otherOrgKey}` })).json();
      assert.equal(me.username, 'olaf');
      const adminKeys = (await get(`/v2/keys?key=${ctx.adminKey}`)).json() as { id: number }[];
      const target = adminKeys[0].id;
      const res = await ctx.app.inject({ method: 'DELETE', url: `/v2/keys?id=${target}&key=${otherOrgKey}` });
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), { message: `API key ${target} not found`, code: 'NOT_FOUND' });
      const theirUsers = (await get(`/v2/users?key=${otherOrgKey}`)).json() as { username: string }[];
      assert.deepEqual(
        theirUsers.map((u) => u.username),
        ['olaf'],
      );
    });

    test('admins create users of their own organization over HTTP', async () => {
      const post = (key: string, payload: object) =>
        ctx.app.inject({
          method: 'POST',
          url: '/v2/users',
          headers: { authorization: `Bearer ${key}` },
          payload,
        });
      const created = await post(otherOrgKey, {
        username: 'ingrid',
        password: 'a fine password',
        role: 'member',
      });
      assert.equal(created.statusCode, 200, created.body);
      assert.equal(created.json().username, 'ingrid');
      // 'member', the old name of a project manager, is taken on input and stored as project_manager.
      assert.equal(created.json().role, 'project_manager');
      const me = (await get('/v2/me', { authorization: basic('ingrid', 'a fine password') })).json();
      const olaf = (await get('/v2/me', { authorization: `Bearer ${otherOrgKey}` })).json();
      assert.equal(me.organization_id, olaf.organization_id);
      assert.equal(
        (await post(otherOrgKey, { username: 'ingrid', password: 'another one' })).statusCode,
        409,
      );
      // A name another organization holds gets the very same answer as one of the caller's own.
      const own = await post(otherOrgKey, { username: 'ingrid', password: 'another one' });
      const foreign = await post(otherOrgKey, { username: 'maria', password: 'another one' });
      assert.deepEqual(foreign.json(), {
        ...own.json(),
        message: own.json().message.replace('ingrid', 'maria'),
      });
      assert.equal(foreign.json().code, 'USERNAME_TAKEN');
      assert.doesNotMatch(foreign.body, /exist|organization/i);
      // Created twice at once, the name is given once and refused once: never a 500.
      const race = await Promise.all(
        [1, 2, 3].map(() => post(otherOrgKey, { username: 'twin', password: 'same time!' })),
      );
      assert.deepEqual(race.map((r) => r.statusCode).sort(), [200, 409, 409]);
      const short = await post(otherOrgKey, { username: 'kurt', password: 'short' });
      assert.equal(short.statusCode, 400);
      assert.match(short.json().message, /"password"/);
      assert.equal((await post(memberKey, { username: 'nope', password: 'long enough' })).statusCode, 403);
    });

    test('user names held elsewhere cannot be listed by trying them: refusals are limited per organization', async () => {
      const probe = await userKey(ctx, {
        username: 'pia',
        password: 'prober password',
        role: 'admin',
        organization: 'probers',
      });
      for (let i = 0; i < 5; i++)
        await userKey(ctx, { username: `staff${i}`, password: 'staff-pass', role: 'member' });
      const create = (username: string) =>
        ctx.app.inject({
          method: 'POST',
          url: '/v2/users',
          headers: { authorization: `Bearer ${probe}` },
          payload: { username, password: 'a fine password' },
        });
      // Ten names refused (held in another organization or their own), then every creation is refused alike.
      const tried = [];
      for (const name of [
        'maria',
        'olaf',
        'admin',
        'staff0',
        'staff1',
        'staff2',
        'staff3',
        'staff4',
        'pia',
        'maria',
      ])
        tried.push((await create(name)).statusCode);
      assert.deepEqual(tried, Array(10).fill(409));
      const taken = await create('olaf');
      const free = await create('a-free-name');
      assert.equal(taken.statusCode, 429);
      assert.equal(free.statusCode, 429, 'a free name gets the same answer: the refusal tells nothing');
      assert.deepEqual(Object.keys(taken.json()), ['message', 'code']);
      assert.equal(taken.json().code, 'TOO_MANY_TAKEN_USERNAMES');
      assert.equal(free.json().code, taken.json().code);
      assert.ok(Number(taken.headers['retry-after']) > 0);
      // Other organizations go on creating users.
      const elsewhere = await ctx.app.inject({
        method: 'POST',
        url: '/v2/users',
        headers: { authorization: `Bearer ${ctx.adminKey}` },
        payload: { username: 'quentin', password: 'a fine password' },
      });
      assert.equal(elsewhere.statusCode, 200, elsewhere.body);
    });

    test('project managers list the users they assign but cannot administer them; linguists cannot list them', async () => {
      const listed = await get(`/v2/users?key=${memberKey}`);
      assert.equal(listed.statusCode, 200, listed.body);
      assert.ok(listed.json().some((u: { username: string }) => u.username === 'maria'));
      const translatorKey = await userKey(ctx, {
        username: 'tilda',
        password: 'tilda-password',
        role: 'translator',
      });
      const refused = await get(`/v2/users?key=${translatorKey}`);
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json().code, 'FORBIDDEN');
    });

    test('a key records when it was last used, at most once a minute', async () => {
      const created = await ctx.app.inject({
        method: 'POST',
        url: '/v2/keys',
        headers: { authorization: `Bearer ${ctx.adminKey}` },
        payload: { name: 'tracked' },
      });
      const { id, key } = created.json();
      const listed = async () =>
        (
          (await get(`/v2/keys?key=${ctx.adminKey}`)).json() as { id: number; last_used_at: number | null }[]
        ).find((k) => k.id === id)!;
      assert.equal((await listed()).last_used_at, null, 'never used yet');
      const before = Math.floor(Date.now() / 1000);
      assert.equal((await get(`/v2/languages?key=${key}`)).statusCode, 200);
      // The write does not hold the request up, but the listing waits for it.
      const used = await listed();
      assert.ok(used.last_used_at !== null && used.last_used_at >= before, JSON.stringify(used));
      // Within the minute, further uses do not write again (a write would be waited for, and seen).
      await ctx.db.run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', [before - 30, id]);
      assert.equal((await get(`/v2/languages?key=${key}`)).statusCode, 200);
      assert.equal((await listed()).last_used_at, before - 30);
    });

    test('web sessions: an HttpOnly SameSite=Strict cookie from a password or a key; writes only from the same origin', async () => {
      const wrong = await ctx.app.inject({
        method: 'POST',
        url: '/v2/session',
        payload: { username: 'maria', password: 'nope' },
      });
      assert.equal(wrong.statusCode, 401);
      assert.deepEqual(wrong.json(), {
        message: 'Wrong username or password, or an unknown API key',
        code: 'BAD_CREDENTIALS',
      });
      assert.equal(wrong.headers['set-cookie'], undefined);

      const signIn = await ctx.app.inject({
        method: 'POST',
        url: '/v2/session',
        payload: { username: 'maria', password: 'correct horse' },
      });
      assert.equal(signIn.statusCode, 200, signIn.body);
      assert.equal(signIn.json().username, 'maria');
      const setCookie = String(signIn.headers['set-cookie']);
      assert.match(
        setCookie,
        /^tessera_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=43200$/,
      );
      const cookie = setCookie.split(';')[0];
      const token = cookie.split('=')[1];
      // Stored only as a hash.
      const stored = await ctx.db.all<{ id: string }>('SELECT id FROM sessions');
      assert.ok(stored.length > 0 && stored.every((r) => r.id !== token && /^[0-9a-f]{64}$/.test(r.id)));

      const me = await ctx.app.inject({ url: '/v2/me', headers: { cookie } });
      assert.equal(me.json().username, 'maria');
      // A write with the cookie: refused without this server's Origin, done with it.
      const write = (origin?: string) =>
        ctx.app.inject({
          method: 'POST',
          url: '/v2/keys',
          headers: { cookie, host: 'tessera.example:8080', ...(origin ? { origin } : {}) },
          payload: { name: 'from the browser' },
        });
      for (const origin of [undefined, 'https://evil.example', 'http://tessera.example:9999']) {
        const refused = await write(origin);
        assert.equal(refused.statusCode, 403, String(origin));
        assert.equal(refused.json().code, 'CROSS_SITE_REQUEST');
      }
      assert.equal((await write('http://tessera.example:8080')).statusCode, 200);
      // Every other way of authenticating still works beside it, and wins over the cookie.
      const other = await ctx.app.inject({
        url: '/v2/me',
        headers: { cookie, authorization: `Bearer ${otherOrgKey}` },
      });
      assert.equal(other.json().username, 'olaf');

      const byKey = await ctx.app.inject({
        method: 'POST',
        url: '/v2/session',
        payload: { key: otherOrgKey },
      });
      assert.equal(byKey.statusCode, 200);
      assert.equal(byKey.json().username, 'olaf');

      const signOut = await ctx.app.inject({
        method: 'DELETE',
        url: '/v2/session',
        headers: { cookie, host: 'tessera.example:8080', origin: 'http://tessera.example:8080' },
      });
      assert.deepEqual(signOut.json(), { signed_out: true });
      assert.match(String(signOut.headers['set-cookie']), /^tessera_session=; .*Max-Age=0/);
      assert.equal(
        (await ctx.app.inject({ url: '/v2/me', headers: { cookie } })).statusCode,
        401,
        'the session is gone',
      );
    });
  });
}
