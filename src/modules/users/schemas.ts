// TypeBox schemas of the accounts extension: the caller, users and API keys.
import { Type } from 'typebox';
import { Nullable, StringEnum } from '../../http/schemas.ts';

/** What a user may do, as an answer says it: an admin manages the organization's users and keys too. */
const Role = StringEnum(['admin', 'project_manager', 'translator', 'reviewer']);

export const Caller = Type.Object({
  user_id: Type.Integer(),
  username: Type.String(),
  role: Role,
  organization_id: Type.Integer(),
});

export const User = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  email: Nullable(Type.String()),
  role: Role,
  disabled: Type.Boolean(),
  created_at: Type.Integer(),
});

export const ApiKey = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  username: Type.String(),
  prefix: Type.String(),
  created_at: Type.Integer(),
  last_used_at: Nullable(Type.Integer()),
  revoked: Type.Boolean(),
});

/** A role as the API takes it: 'member' is the old name of project_manager, accepted and stored as it. */
export const RoleInput = Type.Union([
  Type.Literal('admin'),
  Type.Literal('project_manager'),
  Type.Literal('translator'),
  Type.Literal('reviewer'),
  Type.Literal('member'),
]);

export const CreateUserBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 100 }),
  password: Type.String({ minLength: 8, maxLength: 1000 }),
  role: Type.Optional(RoleInput),
  email: Type.Optional(Type.String({ maxLength: 320 })),
});

export const CreateKeyBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  user_id: Type.Optional(Type.Integer({ minimum: 1 })),
});

/** The only answer that ever holds a key in clear. */
export const CreatedKey = Type.Object({ id: Type.Integer(), name: Type.String(), key: Type.String() });

/** POST /v2/session: a username and password, or an API key. */
export const SignInBody = Type.Union([
  Type.Object({
    username: Type.String({ minLength: 1, maxLength: 100 }),
    password: Type.String({ minLength: 1, maxLength: 1000 }),
  }),
  Type.Object({ key: Type.String({ minLength: 1, maxLength: 200 }) }),
]);

export const SignedOut = Type.Object({ signed_out: Type.Boolean() });

/** PUT /v2/users (admin): what is given changes. */
export const UpdateUserBody = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  role: Type.Optional(RoleInput),
  disabled: Type.Optional(Type.Boolean()),
  password: Type.Optional(Type.String({ minLength: 8, maxLength: 1000 })),
});

export const ChangePasswordBody = Type.Object({
  current_password: Type.String({ maxLength: 1000 }),
  new_password: Type.String({ minLength: 8, maxLength: 1000 }),
});

export const PasswordChanged = Type.Object({ changed: Type.Boolean() });
