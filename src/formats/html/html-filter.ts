// HTML filter: units as html-scanner.ts reads them; merge splices translations into the original bytes,
// with each tag's native markup restored, and sets `<html lang>` to the target language.

import {
  applyEdits,
  checkedMerge,
  type Edit,
  type ExtractedUnit,
  type FormatFilter,
  unitEdits,
} from '../filter.ts';
import { renderTranslation } from '../native-splice.ts';
import { decodeText, encodeText } from '../text-encoding.ts';
import { escapeHtmlAttr, escapeHtmlText } from './html-escape.ts';
import { HtmlScanner } from './html-scanner.ts';

/** The edit that sets `<html lang>` to the target language. */
function langEdit(lang: NonNullable<HtmlScanner['lang']>, trglang: string): Edit {
  const value = escapeHtmlAttr(trglang, '"');
  if (lang.quote === 'add') return { ...lang.range, replace: () => ` lang="${value}"` };
  return { ...lang.range, replace: () => (lang.quote ? escapeHtmlAttr(trglang, lang.quote) : `"${value}"`) };
}

/** The decoded file, its units and where its language is set, as extract and merge both read it. */
function readHtml(original: Buffer) {
  const decoded = decodeText(original, 'HTML');
  const scanner = new HtmlScanner(decoded.text);
  return { decoded, units: scanner.scan(), lang: scanner.lang };
}

export const htmlFilter: FormatFilter = {
  name: 'html',
  extensions: ['.html', '.htm'],
  mediaType: 'text/html; charset=utf-8',
  contextIsKey: false,
  segmentation: 'sentence',

  async extract(original) {
    return readHtml(original).units.map(
      (u): ExtractedUnit => ({ source: u.source, context: u.context, segmentable: true }),
    );
  },

  merge: checkedMerge('HTML', (original, { trglang }) => {
    const { decoded, units, lang } = readHtml(original);
    return {
      units: units.length,
      write(translations) {
        const edits = unitEdits(units, translations, (unit, t) => {
          const escapeText =
            unit.quote === undefined ? escapeHtmlText : (s: string) => escapeHtmlAttr(s, unit.quote || '"');
          return {
            ...unit.range,
            replace: (render) => {
              const text = renderTranslation(t.text, unit, escapeText, render);
              return unit.quote === '' ? `"${text}"` : text;
            },
          };
        });
        if (lang) edits.push(langEdit(lang, trglang));
        return encodeText(applyEdits(decoded.text, edits), decoded);
      },
    };
  }),
};
