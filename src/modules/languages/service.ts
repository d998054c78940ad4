// The enabled languages and every ordered pair of them, as GET /v2/languages answers.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Static } from 'typebox';
import { errors } from '../../errors.ts';
import type { ConstantBody } from '../../http/constant-body.ts';
import { ISO_639_1_CODES, isLanguageCode, languageName } from '../../text/language-names.ts';
import type { LanguagesAnswer as LanguagesSchema } from './schemas.ts';

type LanguagesAnswer = Static<typeof LanguagesSchema>;

/**
 * The answer as bytes, made once: with every ISO 639-1 code enabled it is 183 × 182 pairs, 337 KB of JSON,
 * and serializing it took ~10 ms of the event loop per request (measured: 35–44 requests/s with 8 clients,
 * every other request waiting behind it). It never changes while the process runs.
 */
export type LanguagesBody = ConstantBody;

export class Languages {
  readonly codes: readonly string[];
  private readonly enabled: ReadonlySet<string>;
  /** Built once: the answer is the same for every request. */
  readonly answer: LanguagesAnswer;
  readonly body: LanguagesBody;

  constructor(restriction?: readonly string[]) {
    this.codes = restriction ? [...restriction].sort() : ISO_639_1_CODES;
    this.enabled = new Set(this.codes);
    const sourceToTarget: LanguagesAnswer['source_to_target'] = {};
    const codeToName: LanguagesAnswer['code_to_name'] = {};
    for (const source of this.codes) {
      codeToName[source] = languageName(source);
      const targets: Record<string, boolean> = {};
      for (const target of this.codes) if (target !== source) targets[target] = true;
      sourceToTarget[source] = targets;
    }
    this.answer = { source_to_target: sourceToTarget, code_to_name: codeToName };
    const json = Buffer.from(JSON.stringify(this.answer), 'utf8');
    this.body = {
      json,
      gzip: gzipSync(json, { level: 9 }),
      etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`,
    };
  }

  isEnabled(code: string): boolean {
    return this.enabled.has(code);
  }

  /**
   * The enabled ISO 639-1 code for a language parameter; accepts a locale and keeps its primary subtag
   * (`en-US`, `EN_us` → `en`). Throws a 400 naming the parameter otherwise.
   */
  require(parameter: string, value: string): string {
    const code = value.trim().split(/[-_]/)[0].toLowerCase();
    if (!isLanguageCode(code) || !this.enabled.has(code)) throw errors.unknownLanguage(parameter, value);
    return code;
  }
}
