// How the HTML filter treats each element: as a tag around text, a placeholder, or content never translated.

/** Phrasing elements that become `<g>` tags around their text. */
export const INLINE = new Set(
  (
    'a abbr acronym b bdi bdo big button cite data del dfn em font i ins label mark nobr output q rp rt ruby s ' +
    'small span strike strong sub sup time tt u var'
  ).split(' '),
);
/** Empty phrasing elements: `<x/>` placeholders. */
export const VOID_INLINE = new Set(['br', 'img', 'wbr', 'input', 'area']);
/** Inline code, shown to the translator as the native code of a `<ph>`. */
export const CODE_INLINE = new Set(['code', 'kbd', 'samp']);
/** Phrasing content that is never translated: one placeholder inside a paragraph, skipped elsewhere. */
export const OPAQUE_INLINE = new Set(
  'script style textarea svg math template iframe object embed video audio canvas noscript select'.split(' '),
);
/** Block elements whose content is never translated. */
export const OPAQUE_BLOCK = new Set(['pre', 'code', 'listing', 'xmp', 'plaintext']);
/** Attributes whose values are units of their own. */
export const TRANSLATABLE_ATTRIBUTES = new Set(['alt', 'title', 'placeholder', 'aria-label']);
const CTYPES: Record<string, string> = {
  a: 'link',
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underlined',
  br: 'lb',
  img: 'image',
};
/** The ctype of the tag an element becomes. */
export const ctypeOf = (name: string) => CTYPES[name] ?? `x-${name}`;
