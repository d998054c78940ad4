// Language tags as files and settings spell them (`en`, `en-US`, `EN_us`): what is compared is the primary subtag.

/** The primary subtag of a language tag, lower case: `de-DE` → `de`, `EN_us` → `en`. */
export function primaryLanguage(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0];
}
