// The gettext filter (.po, .pot): messages as units, read with gettext-parser, merged by splicing.
//
// Merging a template (.pot) gives a translated catalog (.po) for the target language; the caller names
// the downloaded file.

import type { FormatFilter } from '../filter.ts';
import { encodeText } from '../text/text-encoding.ts';
import { extractUnits } from './extract.ts';
import { mergeCatalog } from './merge.ts';
import { readCatalog } from './po-catalog.ts';

export const poFilter: FormatFilter = {
  name: 'po',
  extensions: ['.po', '.pot'],
  mediaType: 'text/x-gettext-translation; charset=utf-8',

  async extract(original, { trglang }) {
    return extractUnits(readCatalog(original, trglang));
  },

  async merge(original, translations, { trglang }) {
    const catalog = readCatalog(original, trglang);
    const merged = mergeCatalog(catalog, translations, trglang);
    // Nothing translated: nothing to change, whatever the file's charset.
    if (merged === undefined) return original;
    return encodeText(merged, { encoding: 'utf-8', bom: catalog.bom });
  },
};
