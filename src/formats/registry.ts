// Every document format filter, found by file name.
import { androidFilter } from './android/android-filter.ts';
import { docxFilter } from './docx/docx-filter.ts';
import type { FormatFilter } from './filter.ts';
import { htmlFilter } from './html/html-filter.ts';
import { jsonFilter } from './json/json-filter.ts';
import { markdownFilter } from './markdown/markdown-filter.ts';
import { textFilter } from './plain-text/plain-text-filter.ts';
import { poFilter } from './po/po-filter.ts';
import { xliffFilter } from './xliff/xliff-filter.ts';
import { yamlFilter } from './yaml/yaml-filter.ts';

export const FILTERS: readonly FormatFilter[] = [
  textFilter,
  xliffFilter,
  poFilter,
  jsonFilter,
  htmlFilter,
  markdownFilter,
  docxFilter,
  androidFilter,
  yamlFilter,
];

/** Extensions (and full names such as strings.xml) that uploads accept, for error messages. */
export const SUPPORTED_EXTENSIONS: readonly string[] = FILTERS.flatMap((f) => f.extensions);

/** The filter for a file name: a full-name match (strings.xml) first, then the longest extension. */
export function filterForName(name: string): FormatFilter | undefined {
  const lower = name.toLowerCase();
  let best: { filter: FormatFilter; length: number } | undefined;
  for (const filter of FILTERS) {
    for (const ext of filter.extensions) {
      const matches = ext.startsWith('.') ? lower.endsWith(ext) : lower === ext || lower.endsWith(`-${ext}`);
      if (matches && (!best || ext.length > best.length)) best = { filter, length: ext.length };
    }
  }
  return best?.filter;
}

export function filterByFormat(format: string): FormatFilter | undefined {
  return FILTERS.find((f) => f.name === format);
}
