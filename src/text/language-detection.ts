// The language a text is written in, by franc's trigram model (franc-min: the 82 languages with over a
// million speakers), as an ISO 639-1 code; "und" when the text is too short or too mixed to tell.
import { francAll } from 'franc-min';
import { iso6393 } from 'iso-639-3';

/** Text past this many characters adds nothing to the guess but time. */
const SAMPLE_CHARS = 20_000;

const TO_639_1 = new Map(iso6393.filter((l) => l.iso6391).map((l) => [l.iso6393, l.iso6391!]));

export interface DetectedLanguage {
  /** ISO 639-1 code, or "und" (undetermined). */
  code: string;
  /**
   * 0–1: how far the best guess is ahead of the second (franc scores the best language 1 and the others
   * by their distance from it): a text that reads as much like Danish as Norwegian is not a confident guess.
   */
  confidence: number;
}

export function detectLanguage(text: string): DetectedLanguage {
  const sample = text.slice(0, SAMPLE_CHARS);
  const ranked = francAll(sample, { minLength: 20 });
  const [best, second] = ranked;
  const code = best && best[0] !== 'und' ? TO_639_1.get(best[0]) : undefined;
  if (!code) return { code: 'und', confidence: 0 };
  const confidence = Math.round(Math.min(1, Math.max(0, best[1] - (second?.[1] ?? 0)) * 4) * 1000) / 1000;
  return { code, confidence };
}
