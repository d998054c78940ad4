// Administration through HTTP on every store: users changed and disabled by admins (at once for every way
// of signing in), own password changes, keys with their last use, revoked at once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { revokeAnyKey } from '../src/modules/users/service.ts';
import { basic, createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

for (const target of await storeTargets()) {
  describe(`administration on ${target.name}`, () => {
    let ctx: TestContext;
    const as = (authorization: string) => ({
      get: (url: string) => ctx.app.inject({ method: 'GET', url, headers: { authorization } }),
      put: (url: string, payload: object) =>
        ctx.app.inject({ method: 'PUT', url, headers: { authorization }, payload }),
      delete: (url: string) => ctx.app.inject({ method: 'DELETE', url, headers: { authorization } }),
      post: (url: string, payload: object) =>
        ctx.app.inject({ method: 'POST', url, headers: { authorization }, payload }),
    });
    const bearer = (key: string) => `Bearer ${key}`;
    let admin: ReturnType<typeof as>;

    before(async () => {
      ctx = await createContext(target);
      admin = as(bearer(ctx.adminKey));
    });
    after(() => ctx.close());

    async function signIn(username: string, password: string): Promise<string> {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/v2/session',
        payload: { username, password },
      });
      assert.equal(res.statusCode, 200, res.body);
      return String(res.headers['set-cookie']).split(';')[0];
    }
    const withCookie = (cookie: string) =>
      ctx.app.inject({ method: 'GET', url: '/v2/me', headers: { cookie } });

    test('a disabled user is refused at once by key, session and password; enabled again, they work', async () => {
      const key = await userKey(ctx, { username: 'dora', password: 'dora-password', role: 'member' });
      const cookie = await signIn('dora', 'dora-password');
      const byPassword = as(basic('dora', 'dora-password'));
      assert.equal((await as(bearer(key)).get('/v2/me')).statusCode, 200);
      assert.equal((await withCookie(cookie)).statusCode, 200);
      assert.equal((await byPassword.get('/v2/me')).statusCode, 200);
      const id = (await as(bearer(key)).get('/v2/me')).json().user_id;

      const res = await admin.put('/v2/users', { id, disabled: true });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().disabled, true);
      assert.equal((await as(bearer(key)).get('/v2/me')).statusCode, 401);
      assert.equal((await withCookie(cookie)).statusCode, 401);
      // The password login checked a moment ago is not remembered past the change.
      assert.equal((await byPassword.get('/v2/me')).statusCode, 401);

      assert.equal((await admin.put('/v2/users', { id, disabled: false })).json().disabled, false);
      assert.equal((await as(bearer(key)).get('/v2/me')).statusCode, 200);
      assert.equal((await byPassword.get('/v2/me')).statusCode, 200);
      // Its sessions ended for good.
      assert.equal((await withCookie(cookie)).statusCode, 401);
    });

    test('a session made from an API key ends when the key is revoked, by its owner, an admin or the CLI', async () => {
      const key = await userKey(ctx, { username: 'hanna', password: 'hanna-password', role: 'member' });
      const hanna = as(bearer(key));
      const keySession = async (k: string) => {
        const res = await ctx.app.inject({ method: 'POST', url: '/v2/session', payload: { key: k } });
        assert.equal(res.statusCode, 200, res.body);
        return String(res.headers['set-cookie']).split(';')[0];
      };
      const byPassword = await signIn('hanna', 'hanna-password');
      // Revoked by its owner.
      const laptop = (await hanna.post('/v2/keys', { name: 'laptop' })).json();
      const fromLaptop = await keySession(laptop.key);
      assert.equal((await withCookie(fromLaptop)).json().username, 'hanna');
      assert.equal((await hanna.delete(`/v2/keys?id=${laptop.id}`)).statusCode, 200);
      assert.equal((await withCookie(fromLaptop)).statusCode, 401, 'the session ended with its key');
      // Revoked by an admin.
      const phone = (await hanna.post('/v2/keys', { name: 'phone' })).json();
      const fromPhone = await keySession(phone.key);
      assert.equal((await admin.delete(`/v2/keys?id=${phone.id}`)).statusCode, 200);
      assert.equal((await withCookie(fromPhone)).statusCode, 401);
      // Revoked from the command line (any organization's key, straight in the store).
      const ci = (await hanna.post('/v2/keys', { name: 'ci' })).json();
      const fromCi = await keySession(ci.key);
      assert.equal(await revokeAnyKey(ctx.db, ci.id), true);
      assert.equal((await withCookie(fromCi)).statusCode, 401);
      // The user's other ways in stay: their password session and their other key.
      assert.equal((await withCookie(byPassword)).statusCode, 200);
      assert.equal((await hanna.get('/v2/me')).statusCode, 200);
      // A session of a key whose user is disabled ends too, as every session of that user does.
      const fromKey = await keySession(key);
      const id = (await hanna.get('/v2/me')).json().user_id;
      assert.equal((await admin.put('/v2/users', { id, disabled: true })).statusCode, 200);
      assert.equal((await withCookie(fromKey)).statusCode, 401);
      assert.equal((await admin.put('/v2/users', { id, disabled: false })).statusCode, 200);
      assert.equal((await withCookie(fromKey)).statusCode, 401);
    });

    test('admins change roles and reset passwords; members and other organizations cannot', async () => {
      const key = await userKey(ctx, { username: 'emil', password: 'emil-password', role: 'member' });
      const emil = as(bearer(key));
      const id = (await emil.get('/v2/me')).json().user_id;
      assert.equal((await emil.put('/v2/users', { id, role: 'admin' })).statusCode, 403);
      const promoted = await admin.put('/v2/users', { id, role: 'admin' });
      assert.equal(promoted.json().role, 'admin');
      assert.equal((await emil.get('/v2/users')).statusCode, 200);
      // 'member', the old name of project_manager, is still taken on input.
      assert.equal((await admin.put('/v2/users', { id, role: 'member' })).json().role, 'project_manager');

      const reset = await admin.put('/v2/users', { id, password: 'a-new-password' });
      assert.equal(reset.statusCode, 200, reset.body);
      assert.equal((await as(basic('emil', 'emil-password')).get('/v2/me')).statusCode, 401);
      assert.equal((await as(basic('emil', 'a-new-password')).get('/v2/me')).statusCode, 200);
      assert.equal((await admin.put('/v2/users', { id, password: 'short' })).statusCode, 400);

      const me = (await admin.get('/v2/me')).json().user_id;
      const self = await admin.put('/v2/users', { id: me, disabled: true });
      assert.equal(self.statusCode, 400);
      assert.equal((await admin.put('/v2/users', { id: me, role: 'member' })).statusCode, 400);
      const rival = as(
        bearer(
          await userKey(ctx, {
            username: 'rita',
            password: 'rita-password',
            role: 'admin',
            organization: 'rival',
          }),
        ),
      );
      assert.equal((await rival.put('/v2/users', { id, disabled: true })).statusCode, 404);
      assert.equal((await admin.put('/v2/users', { id: 999999, disabled: true })).statusCode, 404);
    });

    test('PUT /v2/me/password: the current password is proven, the old one stops at once', async () => {
      await userKey(ctx, { username: 'finn', password: 'finn-password', role: 'member' });
      const finn = as(basic('finn', 'finn-password'));
      assert.equal((await finn.get('/v2/me')).statusCode, 200);
      const wrong = await finn.put('/v2/me/password', {
        current_password: 'nope',
        new_password: 'finn-new-pass',
      });
      assert.equal(wrong.statusCode, 400);
      assert.match(wrong.json().message, /current_password/);
      const ok = await finn.put('/v2/me/password', {
        current_password: 'finn-password',
        new_password: 'finn-new-pass',
      });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.deepEqual(ok.json(), { changed: true });
      assert.equal((await finn.get('/v2/me')).statusCode, 401);
      assert.equal((await as(basic('finn', 'finn-new-pass')).get('/v2/me')).statusCode, 200);
    });

    test('keys: members list and revoke their own; last use shown; a revoked key is 401 at once', async () => {
      const gretaKey = await userKey(ctx, { username: 'greta', password: 'greta-password', role: 'member' });
      const greta = as(bearer(gretaKey));
      const created = await greta.post('/v2/keys', { name: 'laptop' });
      assert.equal(created.statusCode, 200, created.body);
      const laptop = as(bearer(created.json().key));
      assert.equal((await laptop.get('/v2/me')).statusCode, 200);
      const mine = (await greta.get('/v2/keys')).json();
      assert.deepEqual(
        mine.map((k: { username: string }) => k.username),
        ['greta', 'greta'],
      );
      const listed = mine.find((k: { id: number }) => k.id === created.json().id);
      assert.equal(typeof listed.last_used_at, 'number');
      assert.ok((await admin.get('/v2/keys')).json().length > 2);
      // Not another user's key.
      const adminKeyId = (await admin.get('/v2/keys')).json()[0].id;
      assert.equal((await greta.delete(`/v2/keys?id=${adminKeyId}`)).statusCode, 404);

      assert.equal((await greta.delete(`/v2/keys?id=${created.json().id}`)).statusCode, 200);
      assert.equal((await laptop.get('/v2/me')).statusCode, 401);
      assert.equal(
        (await greta.get('/v2/keys')).json().find((k: { id: number }) => k.id === created.json().id).revoked,
        true,
      );
    });
  });
}
