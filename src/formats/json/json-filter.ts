// The JSON filter (i18next and other nested key-value catalogs): every non-empty string value is a unit,
// its key path the context; translations are spliced in as JSON string literals, so the file's own
// layout, key order and number formatting stay as they were.

import type { ExtractedUnit, FormatFilter } from '../filter.ts';
import { taggedToLiteral } from '../text/tagged-literal.ts';
import { decodeText, encodeText } from '../text/text-encoding.ts';
import { scanJsonStrings } from './json-scanner.ts';
import { messageToTagged } from './message-tags.ts';

function translatableStrings(text: string) {
  return scanJsonStrings(text).filter((s) => s.value.trim() !== '');
}

export const jsonFilter: FormatFilter = {
  name: 'json',
  extensions: ['.json'],
  mediaType: 'application/json; charset=utf-8',

  async extract(original) {
    const { text } = decodeText(original, 'JSON');
    return translatableStrings(text).map((s): ExtractedUnit => {
      const { tagged, structured } = messageToTagged(s.value);
      const unit: ExtractedUnit = { source: tagged, segmentable: !structured };
      if (s.path) unit.context = s.path;
      return unit;
    });
  },

  async merge(original, translations) {
    const decoded = decodeText(original, 'JSON');
    const { text } = decoded;
    let out = '';
    let at = 0;
    translatableStrings(text).forEach((s, i) => {
      const translation = translations[i];
      if (translation == null) return;
      out += text.slice(at, s.start) + JSON.stringify(taggedToLiteral(translation));
      at = s.end;
    });
    return encodeText(out + text.slice(at), decoded);
  },
};
