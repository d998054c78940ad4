// kill -9 at each stage of a memory import, a document upload, a pre-translation and an export, on every
// store; after a restart the state is the one before or after, nothing is stuck, nothing is orphaned.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { postgresStore, runCrashScenarios, sqliteStore } from './helpers/crash-scenarios.ts';
import { storeTargets } from './helpers/stores.ts';

// Small enough for CI, large enough that each kill lands mid-operation (the bench runs them full size).
const SIZES = { units: 20_000, segments: 6_000 };

for (const target of await storeTargets()) {
  describe(`crash recovery on ${target.name}`, () => {
    test('kill -9 at each stage, restart: before or after, nothing stuck, nothing orphaned', async () => {
      const store = await target.create();
      const dataDir = mkdtempSync(join(tmpdir(), 'tessera-crash-'));
      try {
        const crashStore = store.databaseUrl
          ? postgresStore(store.databaseUrl, dataDir)
          : sqliteStore(store.dataDir);
        await runCrashScenarios(crashStore, SIZES);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
        await store.cleanup();
      }
    });
  });
}
