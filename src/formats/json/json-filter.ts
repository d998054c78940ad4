// The JSON filter (i18next and other nested key-value catalogs): every non-empty string value is a unit,
// its key path the context; translations are spliced in as JSON string literals, so the file's own
// layout, key order and number formatting stay as they were. JSON has no mark for a draft: a draft whose
// placeholders are not the source's leaves the source in that entry, and a confirmed one blocks the export.

import type { PlaceholderSyntax } from '../../text/placeables.ts';
import { placeholderProblem } from '../../text/qa/placeholder-differences.ts';
import {
  applyEdits,
  checkedMerge,
  type ExtractedUnit,
  type FormatFilter,
  leaveDraftSource,
  placeholderMismatches,
  type UnitTranslation,
  unitEdits,
} from '../filter.ts';
import { taggedToLiteral } from '../tagged-literal.ts';
import { decodeText, encodeText } from '../text-encoding.ts';
import { scanJsonStrings } from './json-scanner.ts';
import { messageToTagged } from './message-tags.ts';

// What i18next interpolates (with i18next-icu, ICU arguments): a translation with other placeholders prints
// them raw or throws, so the source stays in its place.
const PLACEHOLDERS: readonly PlaceholderSyntax[] = ['i18next', 'brace'];

/** The decoded file and its non-empty string values, as extract and merge both read it. */
function readStrings(original: Buffer) {
  const decoded = decodeText(original, 'JSON');
  return { decoded, strings: scanJsonStrings(decoded.text).filter((s) => s.value.trim() !== '') };
}

/** Why a translation of a string would not run, or null. */
function problemOf(source: string, t: UnitTranslation): string | null {
  return placeholderProblem(source, taggedToLiteral(t.text), PLACEHOLDERS);
}

export const jsonFilter: FormatFilter = {
  name: 'json',
  extensions: ['.json'],
  mediaType: 'application/json; charset=utf-8',
  contextIsKey: true,
  segmentation: 'entry',

  async extract(original) {
    return readStrings(original).strings.map((s): ExtractedUnit => {
      const { tagged, structured } = messageToTagged(s.value);
      const unit: ExtractedUnit = { source: tagged, segmentable: !structured };
      if (s.path) unit.context = s.path;
      return unit;
    });
  },

  merge: checkedMerge('JSON', (original) => {
    const { decoded, strings } = readStrings(original);
    return {
      units: strings.length,
      write(translations) {
        const edits = unitEdits(strings, translations, (s, t) => {
          const problem = problemOf(s.value, t);
          if (problem !== null) return leaveDraftSource('JSON', t, problem);
          return { start: s.start, end: s.end, text: JSON.stringify(taggedToLiteral(t.text)) };
        });
        return encodeText(applyEdits(decoded.text, edits), decoded);
      },
    };
  }),

  placeholders: {
    syntaxes: PLACEHOLDERS,
    mismatch: 'blocked',
    async mismatches(original, translations) {
      return placeholderMismatches(readStrings(original).strings, translations, (s, t) =>
        problemOf(s.value, t),
      );
    },
  },
};
