// The `tessera` command: serve, migrate, users and keys on the local store; API-client commands.
import { Command, Option } from 'commander';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { AppError } from '../errors.ts';
import { registerAccountCommands } from './account-commands.ts';
import { registerDocumentCommands } from './document-commands.ts';
import { registerMemoryCommands } from './memory-commands.ts';

/** Exits with one line on stderr: the way every CLI failure ends. */
export function fail(message: string, code = 1): never {
  process.stderr.write(`tessera: ${message}\n`);
  process.exit(code);
}

export function configFrom(flags: Partial<Record<keyof Config, string>> = {}): Config {
  return loadConfig(process.env, flags);
}

const program = new Command('tessera')
  .description('Tessera: self-hosted translation memory and document translation server')
  .showHelpAfterError();

program
  .command('serve')
  .description('start the HTTP server (migrates the store first)')
  .addOption(new Option('--port <port>', 'port to listen on (TESSERA_PORT)'))
  .addOption(new Option('--host <host>', 'address to listen on (TESSERA_HOST)'))
  .action(async (opts: { port?: string; host?: string }) => {
    const { serveUntilSignal } = await import('../server.ts');
    await serveUntilSignal(configFrom({ port: opts.port, host: opts.host }));
  });

program
  .command('migrate')
  .description('apply pending schema migrations and exit')
  .action(async () => {
    const { openStore } = await import('../store/open-store.ts');
    const { migrate } = await import('../store/migrate.ts');
    const db = openStore(configFrom());
    try {
      const applied = await migrate(db);
      process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'Store is up to date\n');
    } finally {
      await db.close();
    }
  });

registerAccountCommands(program);
registerMemoryCommands(program, fail);
registerDocumentCommands(program, fail);

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof AppError) fail(err.message);
  fail(err instanceof Error ? err.message : String(err));
});
