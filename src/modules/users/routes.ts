// Accounts over HTTP (extension): who am I, users and API keys of the caller's organization (admins).
import { Type } from 'typebox';
import { errors } from '../../errors.ts';
import type { App } from '../../http/types.ts';
import { principalOf } from '../../http/types.ts';
import type { Db } from '../../store/db.ts';
import * as repo from './repository.ts';
import { createApiKey, createUser, publicKey, publicUser } from './service.ts';

const User = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  role: Type.String(),
  created_at: Type.Integer(),
});

const ApiKey = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  username: Type.String(),
  prefix: Type.String(),
  created_at: Type.Integer(),
  last_used_at: Type.Union([Type.Integer(), Type.Null()]),
  revoked: Type.Boolean(),
});

function requireAdmin(request: { principal: Parameters<typeof principalOf>[0]['principal'] }) {
  const principal = principalOf(request);
  if (principal.role !== 'admin') throw errors.forbidden();
  return principal;
}

export async function usersRoutes(app: App, options: { db: Db }) {
  const { db } = options;

  app.get(
    '/v2/me',
    {
      schema: {
        summary: 'The authenticated caller (extension)',
        tags: ['accounts'],
        response: {
          200: Type.Object({
            user_id: Type.Integer(),
            username: Type.String(),
            role: Type.String(),
            organization_id: Type.Integer(),
          }),
        },
      },
    },
    async (request) => {
      const p = principalOf(request);
      return { user_id: p.userId, username: p.username, role: p.role, organization_id: p.organizationId };
    },
  );

  app.get(
    '/v2/users',
    {
      schema: {
        summary: 'Users of the organization (admin, extension)',
        tags: ['accounts'],
        response: { 200: Type.Array(User) },
      },
    },
    async (request) => {
      const p = requireAdmin(request);
      return (await repo.listUsers(db, p.organizationId)).map(publicUser);
    },
  );

  app.post(
    '/v2/users',
    {
      schema: {
        summary: 'Create a user in the organization (admin, extension)',
        tags: ['accounts'],
        body: Type.Object({
          username: Type.String({ minLength: 1, maxLength: 100 }),
          password: Type.String({ minLength: 8, maxLength: 1000 }),
          role: Type.Optional(Type.Union([Type.Literal('admin'), Type.Literal('member')])),
          email: Type.Optional(Type.String({ maxLength: 320 })),
        }),
        response: { 200: User },
      },
    },
    async (request) => {
      const p = requireAdmin(request);
      const { id } = await createUser(db, {
        username: request.body.username,
        password: request.body.password,
        role: request.body.role ?? 'member',
        email: request.body.email ?? null,
        organization: p.organizationId,
      });
      return publicUser((await repo.findUserById(db, id))!);
    },
  );

  app.get(
    '/v2/keys',
    {
      schema: {
        summary: 'API keys of the organization (admin, extension)',
        tags: ['accounts'],
        response: { 200: Type.Array(ApiKey) },
      },
    },
    async (request) => {
      const p = requireAdmin(request);
      return (await repo.listApiKeys(db, p.organizationId)).map(publicKey);
    },
  );

  app.post(
    '/v2/keys',
    {
      schema: {
        summary: 'Create an API key; the key is shown in this answer only (extension)',
        tags: ['accounts'],
        body: Type.Object({
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          user_id: Type.Optional(Type.Integer({ minimum: 1 })),
        }),
        response: { 200: Type.Object({ id: Type.Integer(), name: Type.String(), key: Type.String() }) },
      },
    },
    async (request) => {
      const p = principalOf(request);
      let userId = p.userId;
      // Members make keys for themselves; admins for any user of their organization.
      if (request.body.user_id !== undefined && request.body.user_id !== p.userId) {
        requireAdmin(request);
        const user = await repo.findUserById(db, request.body.user_id);
        if (!user || Number(user.organization_id) !== p.organizationId)
          throw errors.notFound('User', request.body.user_id);
        userId = Number(user.id);
      }
      return createApiKey(db, { userId, organizationId: p.organizationId, name: request.body.name ?? 'api' });
    },
  );

  app.delete(
    '/v2/keys',
    {
      schema: {
        summary: 'Revoke an API key (admin, extension)',
        tags: ['accounts'],
        querystring: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
        response: { 200: Type.Object({ id: Type.Integer(), deleted: Type.Boolean() }) },
      },
    },
    async (request) => {
      const p = requireAdmin(request);
      if (!(await repo.revokeApiKey(db, request.query.id, p.organizationId)))
        throw errors.notFound('API key', request.query.id);
      return { id: request.query.id, deleted: true };
    },
  );
}
