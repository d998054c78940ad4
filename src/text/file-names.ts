// Upload names are file names: never a path, so that no name can ever reach the file system as one.
import { errors } from '../errors.ts';

// C0 and C1 controls and DEL; the line and paragraph separators; the bidirectional controls, with which a
// name can display as something else ("invoice\u202Efdp.exe" shows as "invoiceexe.pdf").
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** The name, or a 400 naming the parameter: no path part, no `..`, no control characters, at most 255. */
export function requireFileName(name: string | undefined, parameter = 'name'): string {
  if (name === undefined || name.trim() === '') throw errors.missingParameter(parameter);
  if (/[/\\]/.test(name) || name.includes('..') || CONTROL.test(name) || name.length > 255) {
    throw errors.badParameter(
      `Parameter "${parameter}" must be a plain file name (no path, "..", or control characters)`,
    );
  }
  return name;
}

/**
 * The language tag a translated file is named with: the locale when it is a whole tag (`de-DE`), the
 * language with a locale that is only a region (Lilt's `DE` → `de-DE`), or the language alone.
 */
export function targetTag(lang: string, locale: string | null): string {
  if (!locale) return lang;
  return locale.includes('-') ? locale : `${lang}-${locale}`;
}

/**
 * A translated file's name, as localisation tools expect to find it: the target's tag before the extension
 * (`manual.html` → `manual.de-DE.html`, `messages.po` → `messages.de.po`), in place of a tag of the source
 * language that the name already carries (`messages.en.po`, `strings.en-US.json` → `messages.de.po`,
 * `strings.de.json`); a gettext template becomes a catalog (`adduser.pot` → `adduser.de.po`).
 */
export function translatedFileName(name: string, srclang: string, tag: string): string {
  const dot = name.lastIndexOf('.');
  let stem = dot > 0 ? name.slice(0, dot) : name;
  let ext = dot > 0 ? name.slice(dot) : '';
  if (ext.toLowerCase() === '.pot') ext = '.po';
  const inner = stem.lastIndexOf('.');
  if (inner > 0) {
    const last = stem.slice(inner + 1);
    const primary = last.split(/[-_]/)[0].toLowerCase();
    if (/^[a-z]{2,3}([-_][a-z0-9]{2,8})*$/i.test(last) && primary === srclang.toLowerCase().split('-')[0]) {
      stem = stem.slice(0, inner);
    }
  }
  return `${stem}.${tag}${ext}`;
}
