// The `tessera` command: serve, migrate, users and keys on the local store; API-client commands.
// Only commander and the command tables load at start (`--help` stays fast); a command's code loads when it runs.
import { Command, Option } from 'commander';
import { registerAccountCommands } from './account-commands.ts';
import { configFrom, fail } from './cli-support.ts';
import { registerDocumentCommands } from './document-commands.ts';
import { registerFileAndJobCommands } from './job-commands.ts';
import { registerMemoryCommands } from './memory-commands.ts';

const program = new Command('tessera')
  .description('Tessera: self-hosted translation memory and document translation server')
  .showHelpAfterError();

program
  .command('serve')
  .description('start the HTTP server (migrates the store first)')
  .addOption(new Option('--port <port>', 'port to listen on (TESSERA_PORT)'))
  .addOption(new Option('--host <host>', 'address to listen on (TESSERA_HOST)'))
  .action(async (opts: { port?: string; host?: string }) => {
    // The server's Node flags (young generation size) take effect only on node's command line.
    const { relaunchWithServerFlags, watchLauncher } = await import('./server-node-flags.ts');
    if (relaunchWithServerFlags()) return;
    watchLauncher();
    const { serveUntilSignal } = await import('../server.ts');
    await serveUntilSignal(await configFrom({ port: opts.port, host: opts.host }));
  });

program
  .command('migrate')
  .description('apply pending schema migrations and exit')
  .action(async () => {
    const { openStore } = await import('../store/open-store.ts');
    const { migrate } = await import('../store/migrate.ts');
    const db = openStore(await configFrom());
    try {
      const applied = await migrate(db);
      process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'Store is up to date\n');
    } finally {
      await db.close();
    }
  });

registerAccountCommands(program);
registerMemoryCommands(program);
registerDocumentCommands(program);
registerFileAndJobCommands(program);

// Settings, API and store errors alike end as their message on one line.
program.parseAsync(process.argv).catch((err: unknown) => {
  fail(err instanceof Error ? err.message : String(err));
});
