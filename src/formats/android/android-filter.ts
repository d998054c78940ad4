// The Android filter (res/values*/strings.xml): strings, plural items and array items as units, the
// resource name as context and the comment before a resource as its note; merged by splicing. strings.xml
// has no mark for a draft: a draft whose format arguments (%1$s, %d) are not the source's is not merged (the
// source stays), and a confirmed one blocks the export.

import { FormatError } from '../../errors.ts';
import { plainText } from '../../text/inline-tags.ts';
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
import { decodeText, encodeText } from '../text-encoding.ts';
import { contentToTagged, taggedToContent } from './android-inline.ts';
import { edgeSpaceOut, readAndroidResources } from './android-resources.ts';

// getString(id, args…) throws on a conversion its argument does not fit, or one it lacks.
const PLACEHOLDERS: readonly PlaceholderSyntax[] = ['printf'];

function readUnits(original: Buffer) {
  const decoded = decodeText(original, 'strings.xml');
  // Only the Unicode encodings the bytes were decoded as; Android's tools read UTF-8 anyway.
  const declared = /^<\?xml[^>]*encoding\s*=\s*["']([^"']+)/.exec(decoded.text)?.[1];
  const family = decoded.encoding === 'utf-8' ? 'utf8' : 'utf16';
  if (declared && !declared.toLowerCase().replace(/[-_]/g, '').startsWith(family)) {
    throw new FormatError(`strings.xml: encoding "${declared}" is not supported (use UTF-8)`, 1, 1);
  }
  const units = readAndroidResources(decoded.text)
    .map((text) => ({ text, content: contentToTagged(decoded.text.slice(text.start, text.end)) }))
    // A string that is only a placeholder (<xliff:g>%1$s</xliff:g>) has nothing to translate.
    .filter(({ content }) => plainText(content.tagged).trim() !== '');
  return { decoded, units };
}

export const androidFilter: FormatFilter = {
  name: 'android',
  extensions: ['strings.xml'],
  mediaType: 'application/xml; charset=utf-8',
  contextIsKey: true,
  segmentation: 'entry',

  async extract(original) {
    return readUnits(original).units.map(({ text, content }): ExtractedUnit => {
      const unit: ExtractedUnit = { source: content.tagged, context: text.context, segmentable: true };
      if (text.note) unit.notes = [text.note];
      return unit;
    });
  },

  merge: checkedMerge('strings.xml', (original) => {
    const { decoded, units } = readUnits(original);
    return {
      units: units.length,
      write(translations) {
        const edits = unitEdits(units, translations, (unit, t) => {
          const problem = problemOf(decoded.text, unit, t);
          if (problem !== null) return leaveDraftSource('strings.xml', t, problem);
          const { text, content } = unit;
          const written = taggedToContent(core(t.text), content.natives, text.quoted);
          return { start: text.start, end: text.end, text: written };
        });
        return encodeText(applyEdits(decoded.text, edits), decoded);
      },
    };
  }),

  placeholders: {
    syntaxes: PLACEHOLDERS,
    mismatch: 'blocked',
    async mismatches(original, translations) {
      const { decoded, units } = readUnits(original);
      return placeholderMismatches(units, translations, (unit, t) => problemOf(decoded.text, unit, t));
    },
  },
};

/** Why a translation of a resource would not run, or null: its content against the resource's, as written. */
function problemOf(
  file: string,
  { text, content }: ReturnType<typeof readUnits>['units'][number],
  t: UnitTranslation,
) {
  const source = file.slice(text.start, text.end);
  return placeholderProblem(
    source,
    taggedToContent(core(t.text), content.natives, text.quoted),
    PLACEHOLDERS,
  );
}

/**
 * A translation without the edge whitespace it may hold as Android writes it (`\n`, a quoted string's spaces):
 * the file keeps the source's around it, written once — also for a document imported while the segments held
 * them, whose targets have them too.
 */
function core(translation: string): string {
  const { start, end } = edgeSpaceOut(translation);
  return translation.slice(start, end);
}
