// Locale parameters (a memory's srclocale/trglocale, a job's srcLocale and its pairs' trgLocale): a BCP 47
// tag (`de-AT`, `pt_BR`, `zh-Hant-TW`) or, as Lilt's clients send them, a region alone (`DE`, `419`). Checked
// on input, so that what is stored is a locale and nothing else — a job's download names a folder after it.
import { errors } from '../errors.ts';

const REGION = /^([A-Za-z]{2}|\d{3})$/;
const TAG = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/;

function isLocale(value: string): boolean {
  if (REGION.test(value)) return true;
  if (!TAG.test(value) || value.length > 35) return false;
  try {
    Intl.getCanonicalLocales(value.replace(/_/g, '-'));
    return true;
  } catch {
    return false;
  }
}

/** The locale, trimmed, or null when absent; a 400 naming the parameter when it is not a locale. */
export function requireLocale(parameter: string, value: string | null | undefined): string | null {
  if (value === undefined || value === null || value.trim() === '') return null;
  const locale = value.trim();
  if (!isLocale(locale)) {
    throw errors.badParameter(
      `Parameter "${parameter}" must be a BCP 47 locale (de-AT) or a region (AT), got ${JSON.stringify(value)}`,
    );
  }
  return locale;
}
