// The server a browser test drives.
import { createContext, type TestContext } from './context.ts';
import { storeTargets } from './stores.ts';
import { ensureWebBuild } from './web-build.ts';

/**
 * The server of a browser test: the web application built, a fresh embedded store, listening on 127.0.0.1 at a
 * free port. Answers the context (closed by the test) and the base URL the browser opens.
 */
export async function serveWebApp(
  languages: string,
  /** Further settings (an MT engine's URL…). */
  env: Record<string, string> = {},
): Promise<{ ctx: TestContext; base: string }> {
  await ensureWebBuild();
  const [sqlite] = await storeTargets();
  const ctx = await createContext(sqlite, { TESSERA_LANGUAGES: languages, ...env });
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const address = ctx.app.server.address();
  return { ctx, base: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}
