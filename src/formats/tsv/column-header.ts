// Whether the first row of a TSV or CSV memory file names its columns' languages. Short words are often
// also language codes (`OK`, `Hi`, `no`), so a row is a header only when its cells name the memory's own
// languages (either order: then the columns are swapped); any other row is data. The one exception is a
// row of full tags with a region or script (`en-US⇥fr-FR`): no segment reads like that, so it is a header
// for other languages, refused rather than imported as a pair.
import { FormatError } from '../../errors.ts';
import { isLanguageCode } from '../../text/language-names.ts';
import { primaryLanguage as primary } from '../../text/language-tags.ts';

const LANGUAGE_TAG = /^[a-z]{2,3}([-_][a-z0-9]{1,8})*$/i;
const FULL_TAG = /^[a-z]{2,3}([-_][a-z0-9]{2,8})+$/i;

export type FirstRow = 'header' | 'swapped-header' | 'data';

function isTag(cell: string): boolean {
  if (!LANGUAGE_TAG.test(cell)) return false;
  const code = primary(cell);
  if (code.length === 2 && !isLanguageCode(code)) return false;
  try {
    Intl.getCanonicalLocales(cell.replace(/_/g, '-'));
    return true;
  } catch {
    return false;
  }
}

/** What the file's first row is, for a memory of `srclang` → `trglang`; throws for other languages' header. */
export function firstRowKind(
  cells: readonly string[],
  memory: { srclang: string; trglang: string },
  line: number,
): FirstRow {
  if (cells.length < 2) return 'data';
  const [a, b] = [cells[0].trim(), cells[1].trim()];
  if (!isTag(a) || !isTag(b)) return 'data';
  const [src, trg] = [primary(memory.srclang), primary(memory.trglang)];
  if (primary(a) === src && primary(b) === trg) return 'header';
  if (primary(a) === trg && primary(b) === src) return 'swapped-header';
  if (FULL_TAG.test(a) && FULL_TAG.test(b)) {
    throw new FormatError(
      `line ${line}: the columns are ${a} and ${b}, the memory is ${memory.srclang} → ${memory.trglang}`,
    );
  }
  return 'data';
}
