// Machine translation as the API offers it: Lilt's segment translation (memory matches, then MT) and the
// organization's usage. The engine (engine.ts) does the translating; this decides what to ask it.
import { errors } from '../../errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Queryable } from '../../store/db.ts';
import { plainText } from '../../text/inline-tags.ts';
import { type MemoryDeps, queryMemory, requireMemory, type SegmentContextOf } from '../memories/service.ts';
import type { MtEngine, MtResult } from './engine.ts';
import { completeAfterPrefix, continuesPrefix } from './prefix.ts';
import * as repo from './repository.ts';

export interface MtDeps extends MemoryDeps {
  mt: MtEngine;
  segmentContext: SegmentContextOf;
}

/** A BCP-47 tag of a memory's language and locale: `en` and `US` → `en-US`. */
export function languageTag(lang: string, locale: string | null): string {
  return locale ? `${lang}-${locale}` : lang;
}

/** Words and what precedes each (Lilt's targetWords and targetDelimiters): one more delimiter than words. */
export function wordsAndDelimiters(text: string): { words: string[]; delimiters: string[] } {
  const words: string[] = [];
  const delimiters: string[] = [];
  let last = 0;
  for (const m of text.matchAll(/[\p{L}\p{M}\p{N}_'’-]+|[^\s\p{L}\p{M}\p{N}_]/gu)) {
    delimiters.push(text.slice(last, m.index));
    words.push(m[0]);
    last = m.index + m[0].length;
  }
  delimiters.push(text.slice(last));
  return { words, delimiters };
}

function suggestion(targetWithTags: string, score: number, isTMMatch: boolean) {
  const target = plainText(targetWithTags);
  const { words, delimiters } = wordsAndDelimiters(target);
  return {
    target,
    targetWithTags,
    align: '',
    provenance: '',
    score,
    isTMMatch,
    targetWords: words,
    targetDelimiters: delimiters,
  };
}

export interface TranslateInput {
  memory_id: number;
  source: string;
  source_hash?: number;
  n?: number;
  tm_matches?: boolean;
  prefix?: string;
}

/** Translates a segment for a memory's pair as Lilt does: its memory matches first, then MT. */
export async function translateSegment(deps: MtDeps, principal: Principal, input: TranslateInput) {
  const memory = await requireMemory(deps.db, principal, input.memory_id);
  if (input.source.trim() === '') {
    throw input.source_hash !== undefined
      ? errors.badParameter('Parameter "source_hash" is not supported: send the segment as "source"')
      : errors.missingParameter('source');
  }
  const n = input.n ?? 1;
  const matches =
    input.tm_matches === false
      ? []
      : await queryMemory(deps, principal, { id: memory.id, query: input.source, n });
  const mt = await suggestMt(deps, principal.organizationId, input.source, {
    source: languageTag(memory.srclang, memory.srclocale),
    target: languageTag(memory.trglang, memory.trglocale),
    memoryId: memory.id,
  });
  const plain = plainText(input.source);
  const { words, delimiters } = wordsAndDelimiters(plain);
  // With a prefix (prefix.ts), every suggestion continues it: the matches that do are kept, the MT is
  // completed after it.
  const prefix = input.prefix ?? '';
  const translation = matches
    .filter((m) => continuesPrefix(m.target, prefix))
    .map((m) => suggestion(m.target, m.score, true));
  const restored = mt.translations[0];
  if (restored !== null && restored !== undefined) {
    translation.push(suggestion(completeAfterPrefix(prefix, restored), 0, false));
  }
  return {
    untokenizedSource: plain,
    tokenizedSource: words.join(' '),
    sourceDelimiters: delimiters,
    translation,
  };
}

/**
 * The MT of one tagged text for an organization and pair: null when none could be made (see `unavailable`).
 * With the memory in use, MT keeps to its termbase (termbase.ts).
 */
export async function suggestMt(
  deps: { db: Queryable; mt: MtEngine },
  organizationId: number,
  text: string,
  pair: { source: string; target: string; memoryId?: number },
): Promise<MtResult> {
  const termbase =
    pair.memoryId === undefined
      ? null
      : await deps.mt.termbases.of(deps.db, organizationId, pair.memoryId, pair.source, pair.target);
  return deps.mt.translate(deps.db, organizationId, [text], pair.source, pair.target, { termbase });
}

/** The editor's MT suggestion for a segment's source, in the pair of the memory behind it. */
export async function mtSuggestion(
  deps: MtDeps,
  principal: Principal,
  input: { memory_id: number; source: string },
) {
  const memory = await requireMemory(deps.db, principal, input.memory_id);
  if (input.source.trim() === '') throw errors.missingParameter('source');
  const result = await suggestMt(deps, principal.organizationId, input.source, {
    source: languageTag(memory.srclang, memory.srclocale),
    target: languageTag(memory.trglang, memory.trglocale),
    memoryId: memory.id,
  });
  const target = result.translations[0] ?? null;
  return {
    // A translation came from an engine, so one is configured: the engines are read again only to say why not.
    configured: target !== null || (await deps.mt.configuredFor(deps.db, principal.organizationId)),
    provider: target === null ? null : result.provider,
    target,
    unavailable:
      target !== null ? null : (result.unavailable ?? 'the translation’s tags could not be restored'),
  };
}

export async function usage(deps: { db: Queryable; mt: MtEngine }, principal: Principal) {
  await deps.mt.flushUsage();
  return { usage: await repo.usageOf(deps.db, principal.organizationId) };
}
