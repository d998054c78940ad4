// Accounts over HTTP (extension): who am I, users and API keys of the caller's organization (admins).
import { Type } from 'typebox';
import { errors } from '../../errors.ts';
import { cookieValue, isSameOrigin, SESSION_COOKIE, sessionCookie } from '../../http/auth.ts';
import { principalOf } from '../../http/principal.ts';
import { Deleted, IdQuery } from '../../http/schemas.ts';
import type { SignInThrottle } from '../../http/sign-in-throttle.ts';
import type { App } from '../../http/types.ts';
import type { Db } from '../../store/db.ts';
import {
  ApiKey,
  Caller,
  ChangePasswordBody,
  CreatedKey,
  CreateKeyBody,
  CreateUserBody,
  PasswordChanged,
  SignedOut,
  SignInBody,
  UpdateUserBody,
  User,
} from './schemas.ts';
import * as service from './service.ts';
import { SESSION_SECONDS, signIn, signOut } from './sessions.ts';

export async function usersRoutes(app: App, options: { db: Db; throttle: SignInThrottle }) {
  const { db, throttle } = options;
  const tags = ['accounts'];

  app.post(
    '/v2/session',
    {
      schema: {
        summary: 'Sign in the web application: sets an HttpOnly session cookie (extension)',
        tags,
        body: SignInBody,
        response: { 200: Caller },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const attempt =
        'key' in body
          ? { address: request.ip, key: body.key }
          : { address: request.ip, username: body.username };
      const signedIn = await throttle.guard(attempt, () => signIn(db, body));
      if (!signedIn) throw errors.badCredentials();
      reply.header(
        'Set-Cookie',
        sessionCookie(signedIn.token, SESSION_SECONDS, request.protocol === 'https'),
      );
      return signedIn.caller;
    },
  );

  app.delete(
    '/v2/session',
    {
      schema: {
        summary: 'Sign out of the web application: ends the session and clears its cookie (extension)',
        tags,
        response: { 200: SignedOut },
      },
    },
    async (request, reply) => {
      // Only from this server's own pages: a cross-site request cannot sign a user out either.
      if (cookieValue(request, SESSION_COOKIE) && !isSameOrigin(request)) throw errors.csrfRefused();
      await signOut(db, cookieValue(request, SESSION_COOKIE));
      await app.recheckEventStreams();
      reply.header('Set-Cookie', sessionCookie('', 0, request.protocol === 'https'));
      return { signed_out: true };
    },
  );

  app.get(
    '/v2/me',
    { schema: { summary: 'The authenticated caller (extension)', tags, response: { 200: Caller } } },
    async (request) => service.describeCaller(principalOf(request)),
  );

  app.get(
    '/v2/users',
    {
      schema: {
        summary: 'Users of the organization (admin, extension)',
        tags,
        response: { 200: Type.Array(User) },
      },
    },
    async (request) => service.listUsers(db, principalOf(request)),
  );

  app.post(
    '/v2/users',
    {
      schema: {
        summary: 'Create a user in the organization (admin, extension)',
        tags,
        body: CreateUserBody,
        response: { 200: User },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return throttle.guardNewUsername(principal.organizationId, () =>
        service.addUser(db, principal, request.body),
      );
    },
  );

  app.put(
    '/v2/users',
    {
      schema: {
        summary:
          "Change a user's role, disable or enable them, or set their password (admin, extension); a disabled user's sessions and keys stop working at once",
        tags,
        body: UpdateUserBody,
        response: { 200: User },
      },
    },
    async (request) => {
      const user = await service.updateUser(db, principalOf(request), request.body);
      await app.recheckEventStreams();
      return user;
    },
  );

  app.put(
    '/v2/me/password',
    {
      schema: {
        summary: 'Change your own password (extension)',
        tags,
        body: ChangePasswordBody,
        response: { 200: PasswordChanged },
      },
    },
    async (request) => service.changeOwnPassword(db, principalOf(request), request.body),
  );

  app.get(
    '/v2/keys',
    {
      schema: {
        summary:
          'API keys of the organization (admin), or your own (member), with their last use (extension)',
        tags,
        response: { 200: Type.Array(ApiKey) },
      },
    },
    async (request) => service.listKeys(db, principalOf(request)),
  );

  app.post(
    '/v2/keys',
    {
      schema: {
        summary: 'Create an API key; the key is shown in this answer only (extension)',
        tags,
        body: CreateKeyBody,
        response: { 200: CreatedKey },
      },
    },
    async (request) => service.addKey(db, principalOf(request), request.body),
  );

  app.delete(
    '/v2/keys',
    {
      schema: {
        summary: 'Revoke an API key: any of the organization (admin), or your own (extension)',
        tags,
        querystring: IdQuery,
        response: { 200: Deleted },
      },
    },
    async (request) => {
      const revoked = await service.revokeKey(db, principalOf(request), request.query.id);
      await app.recheckEventStreams();
      return revoked;
    },
  );
}
