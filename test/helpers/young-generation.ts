// Run by test/server-node-flags.test.ts as a process of its own: applies the server's Node flags the way
// `tessera serve` does (or, with the argument `set-flags`, with v8.setFlagsFromString), allocates short-lived
// objects until V8 has grown its young generation as far as it may, and prints the new space's size in bytes.
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { relaunchWithServerFlags, SERVER_NODE_FLAGS } from '../../src/cli/server-node-flags.ts';

const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size;

if (process.argv[2] === 'set-flags') {
  for (const flag of SERVER_NODE_FLAGS) setFlagsFromString(flag);
} else if (relaunchWithServerFlags()) {
  // The relaunched process prints the figure, on the same stdout.
} else {
  watch();
}
if (process.argv[2] === 'set-flags') watch();

function watch() {
  // A tenth of what is allocated survives a while, as a server's requests do: V8 grows the new space when
  // scavenges keep finding survivors.
  let kept: object[] = [];
  let largest = newSpace();
  for (let i = 0; i < 3_000_000; i++) {
    const o = { i, pair: [i, i + 1], text: `x${i}` };
    if (i % 10 === 0) kept.push(o);
    if (kept.length > 100_000) kept = [];
    if (i % 10_000 === 0) largest = Math.max(largest, newSpace());
  }
  process.stdout.write(`${Math.max(largest, newSpace())}\n`);
}
