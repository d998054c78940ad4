// The stemmer of each language term recognition knows: Snowball stemmers as @orama/stemmers packs them, keyed
// by the primary subtag of a BCP 47 tag. A language without one is matched by its lower-cased words only.
// All are imported up front (about 300 kB of code in all) so that recognition stays synchronous: the editor
// recognizes terms on each keystroke, and an await there would reorder highlights.
import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as armenian } from '@orama/stemmers/armenian';
import { stemmer as bulgarian } from '@orama/stemmers/bulgarian';
import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as english } from '@orama/stemmers/english';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as greek } from '@orama/stemmers/greek';
import { stemmer as hungarian } from '@orama/stemmers/hungarian';
import { stemmer as hindi } from '@orama/stemmers/indian';
import { stemmer as indonesian } from '@orama/stemmers/indonesian';
import { stemmer as irish } from '@orama/stemmers/irish';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as lithuanian } from '@orama/stemmers/lithuanian';
import { stemmer as nepali } from '@orama/stemmers/nepali';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as romanian } from '@orama/stemmers/romanian';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as serbian } from '@orama/stemmers/serbian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer as tamil } from '@orama/stemmers/tamil';
import { stemmer as turkish } from '@orama/stemmers/turkish';
import { stemmer as ukrainian } from '@orama/stemmers/ukrainian';
import { primaryLanguage } from '../text/language-tags.ts';

export type Stemmer = (lowerCasedWord: string) => string;

/** Primary subtag → stemmer. Norwegian's serves Bokmål and Nynorsk; Serbian's reads Cyrillic and Latin. */
const STEMMERS: Readonly<Record<string, Stemmer>> = Object.freeze({
  ar: arabic,
  hy: armenian,
  bg: bulgarian,
  da: danish,
  nl: dutch,
  en: english,
  fi: finnish,
  fr: french,
  de: german,
  el: greek,
  hu: hungarian,
  hi: hindi,
  id: indonesian,
  ga: irish,
  it: italian,
  lt: lithuanian,
  ne: nepali,
  no: norwegian,
  nb: norwegian,
  nn: norwegian,
  pt: portuguese,
  ro: romanian,
  ru: russian,
  sr: serbian,
  es: spanish,
  sv: swedish,
  ta: tamil,
  tr: turkish,
  uk: ukrainian,
});

/** The languages (primary subtags) whose words are stemmed. */
export const STEMMED_LANGUAGES: readonly string[] = Object.freeze(Object.keys(STEMMERS).sort());

/** The stemmer of a language tag (`de-AT` → German), or undefined: its words are compared lower-cased. */
export function stemmerOf(lang: string): Stemmer | undefined {
  return STEMMERS[primaryLanguage(lang)];
}

/** Lower-casing by the language's rules where they differ from the default (Turkish and Azeri dotted I). */
export function lowerCaserOf(lang: string): (word: string) => string {
  const primary = primaryLanguage(lang);
  if (primary === 'tr' || primary === 'az') return (word) => word.toLocaleLowerCase(primary);
  return (word) => word.toLowerCase();
}
