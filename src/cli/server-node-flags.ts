// The Node flags `tessera serve` runs with, and the relaunch that applies them. V8 sizes its young generation
// when the process starts: `v8.setFlagsFromString('--max-semi-space-size=…')` afterwards is accepted and does
// nothing (the new space stays at its default ceiling; test/server-node-flags.test.ts shows both), so the flag
// must be on the command line. `npm start` runs `node bin/tessera.js serve` with none, so the serve command
// starts itself again with them and stays beside it as a thin launcher: it forwards signals and exits as
// the server does.
import { spawn } from 'node:child_process';

/**
 * Chosen by measurement over HTTP (bench/README.md, "The server's Node flags"): a young generation of 64 MB
 * semi-spaces instead of V8's 16 MB. Each query allocates its answer and the request's objects; with the
 * default, scavenges come every few hundred queries and each one delays every request in flight.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

/** Set in the relaunched server's environment: it never relaunches itself again. */
const RELAUNCHED = 'TESSERA_NODE_FLAGS_APPLIED';

/** The flag's name (`--max-semi-space-size`), for both `--flag=value` and `--flag value` spellings. */
function flagName(flag: string): string {
  return flag.split('=')[0].replaceAll('_', '-');
}

/**
 * The server flags this process lacks. An operator's own setting of the same flag, on node's command line or
 * in NODE_OPTIONS, is theirs and is kept.
 */
export function missingServerFlags(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const given = new Set([...execArgv, ...(nodeOptions ?? '').split(/\s+/)].map(flagName));
  return SERVER_NODE_FLAGS.filter((flag) => !given.has(flagName(flag)));
}

/**
 * Starts this command again with the server's flags when they are missing, and answers true: the caller
 * must then not serve (the relaunched process does). Answers false when this process already has them.
 */
export function relaunchWithServerFlags(): boolean {
  if (process.env[RELAUNCHED]) return false;
  const missing = missingServerFlags(process.execArgv, process.env.NODE_OPTIONS);
  if (missing.length === 0) return false;

  // The same node, its own flags (a loader such as tsx's included), the same script and arguments. An IPC
  // channel lets the server notice this launcher's death, even by SIGKILL (see watchLauncher).
  const child = spawn(process.execPath, [...missing, ...process.execArgv, ...process.argv.slice(1)], {
    env: { ...process.env, [RELAUNCHED]: '1' },
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  // Signals sent to this pid (by Docker, systemd, a terminal) are the server's. A terminal's Ctrl-C reaches
  // both processes; the server's shutdown takes a second signal as the same request.
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, forward);
  child.once('error', (err) => {
    process.stderr.write(`tessera: could not start the server with its Node flags: ${err.message}\n`);
    process.exit(1);
  });
  child.once('exit', (code, signal) => {
    for (const name of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.off(name, forward);
    // Ended by a signal: end the same way, so the launcher's exit says what the server's did.
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
  return true;
}

/**
 * In the relaunched server: when its launcher dies without forwarding a signal (SIGKILL), the server dies at
 * once too, as it would have had it been the process killed — never left running on its data directory.
 */
export function watchLauncher(): void {
  if (!process.env[RELAUNCHED] || !process.channel) return;
  // The channel must not keep the process alive on its own; its closing is the launcher's death.
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGKILL'));
}
