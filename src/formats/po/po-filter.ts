// The gettext filter (.po, .pot): messages as units, read with gettext-parser, merged by splicing.
//
// Merging a template (.pot) gives a translated catalog (.po) for the target language; the caller names
// the downloaded file. A translation whose format arguments would not run is written `#, fuzzy` with a
// translator comment naming the problem (merge.ts).

import { checkedMerge, type FormatFilter } from '../filter.ts';
import { encodeText } from '../text-encoding.ts';
import { extractUnits } from './extract.ts';
import { catalogMismatches, mergeCatalog, PO_PLACEHOLDERS } from './merge.ts';
import { readCatalog } from './po-catalog.ts';

export const poFilter: FormatFilter = {
  name: 'po',
  extensions: ['.po', '.pot'],
  mediaType: 'text/x-gettext-translation; charset=utf-8',
  contextIsKey: true,
  segmentation: 'entry',

  async extract(original, { trglang }) {
    return extractUnits(readCatalog(original, trglang));
  },

  merge: checkedMerge('PO', (original, { trglang }) => {
    const catalog = readCatalog(original, trglang);
    return {
      units: catalog.messages.reduce((n, m) => n + m.forms, 0),
      write: (translations) =>
        encodeText(mergeCatalog(catalog, translations, trglang), { encoding: 'utf-8', bom: catalog.bom }),
    };
  }),
  placeholders: {
    syntaxes: PO_PLACEHOLDERS,
    mismatch: 'fuzzy',
    async mismatches(original, translations, { trglang }) {
      return catalogMismatches(readCatalog(original, trglang), translations);
    },
  },
};
