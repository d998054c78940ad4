// `tessera users …` and `tessera keys …`: administration on the local store (no server needed).
import type { Command } from 'commander';
import { LEGACY_MEMBER_ROLE, ROLES, type Role } from '../roles.ts';
import type { Db } from '../store/db.ts';
import { configFrom, fail } from './cli-support.ts';

type UserService = typeof import('../modules/users/service.ts');

/** Runs `fn` on the migrated store; the store and the service load here, not when `--help` starts. */
async function withStore<T>(fn: (db: Db, users: UserService) => Promise<T>): Promise<T> {
  const [{ openStore }, { migrate }, users] = await Promise.all([
    import('../store/open-store.ts'),
    import('../store/migrate.ts'),
    import('../modules/users/service.ts'),
  ]);
  const db = openStore(await configFrom());
  try {
    await migrate(db);
    return await fn(db, users);
  } finally {
    await db.close();
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** The --role option, checked: a mistyped role is refused before anything is created. */
function roleOption(role: string | undefined): Role {
  if (role === undefined) return 'project_manager';
  if (role === LEGACY_MEMBER_ROLE) return 'project_manager';
  if (!(ROLES as readonly string[]).includes(role)) {
    throw new Error(`--role must be one of ${ROLES.join(', ')} (got "${role}")`);
  }
  return role as Role;
}

export function registerAccountCommands(program: Command) {
  const users = program.command('users').description('manage users');
  users
    .command('create <name>')
    .description('create a user (a project manager unless --admin or --role)')
    .option('--admin', 'give the admin role')
    .option('--role <role>', 'admin, project_manager, translator or reviewer')
    .option('--password-stdin', 'read the password from standard input')
    .option('--org <organization>', 'organization (created when missing)', 'default')
    .option('--email <email>', 'e-mail address')
    .action(
      async (
        name: string,
        opts: { admin?: boolean; role?: string; passwordStdin?: boolean; org: string; email?: string },
      ) => {
        const password = opts.passwordStdin ? await readStdin() : null;
        const user = await withStore((db, { createUser }) =>
          createUser(db, {
            username: name,
            password,
            role: opts.admin ? 'admin' : roleOption(opts.role),
            organization: opts.org,
            email: opts.email ?? null,
          }),
        );
        process.stdout.write(
          `Created user ${user.username} (id ${user.id}, ${user.role}, organization ${opts.org})\n`,
        );
      },
    );

  const keys = program.command('keys').description('manage API keys');
  keys
    .command('create')
    .description('create an API key and print it once')
    .option('--user <name>', 'the user the key acts as', 'admin')
    .option('--name <label>', 'a label for the key', 'cli')
    .action(async (opts: { user: string; name: string }) => {
      const created = await withStore((db, { createKeyForUser }) =>
        createKeyForUser(db, opts.user, opts.name),
      );
      process.stdout.write(`${created.key}\n`);
      process.stderr.write(
        `Key ${created.id} "${created.name}" for ${opts.user}: shown once, store it now.\n`,
      );
    });

  keys
    .command('list')
    .description('list API keys (never the keys themselves)')
    .action(async () => {
      const rows = await withStore((db, { listAllKeys }) => listAllKeys(db));
      process.stdout.write('ID\tUSER\tNAME\tPREFIX\tCREATED\tSTATE\n');
      for (const k of rows) {
        const created = new Date(k.created_at * 1000).toISOString();
        process.stdout.write(
          `${k.id}\t${k.username}\t${k.name}\t${k.prefix}…\t${created}\t${k.revoked ? 'revoked' : 'active'}\n`,
        );
      }
    });

  keys
    .command('revoke <id>')
    .description('revoke an API key')
    .action(async (id: string) => {
      if (!/^\d+$/.test(id)) fail(`key id must be a positive integer, got "${id}"`);
      const revoked = await withStore((db, { revokeAnyKey }) => revokeAnyKey(db, Number(id)));
      if (!revoked) fail(`no active key with id ${id}`);
      process.stdout.write(`Revoked key ${id}\n`);
    });
}
