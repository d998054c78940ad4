// What the memory import needs of the terms module: Lilt imports termbases through POST /v2/memories/import
// (`.tbx`, and `.csv` sent with has_header_row). The terms module sits above this one (it finds memories
// through this module's service), so src/app.ts hands its import over rather than this importing it.
import type { Principal } from '../../http/principal.ts';

export interface TermFiles {
  /** Whether an upload of this name (and Lilt's has_header_row, given or not) is a termbase. */
  isTermFile(name: string, hasHeaderRow: boolean | undefined): boolean;
  /** Imports it whole, or throws having changed nothing. */
  importTermFile(
    principal: Principal,
    params: { memory_id: number; name: string; has_header_row?: boolean },
    file: AsyncIterable<Buffer>,
  ): Promise<unknown>;
}
