// The file_translation task (Lilt's Instant Translate): an uploaded file through the same pieces a document
// goes through — its format filter and the sentence segmentation (documents/document-thread.ts, in a worker
// thread for a large file), the memory's best matches (memories service), the organization's MT engine, and
// the filter's merge that the document export writes with — without becoming a document: the translated file
// is kept beside the translation for GET /v2/translate/files.
//
// What each segment gets: a segment whose best memory match scores 100 or more takes it (withTM; repaired to
// the segment's placeables), written as confirmed work; every other segment is machine translated, written
// as a draft (PO `#, fuzzy`, XLIFF `needs-review-translation`: MT is never passed off as reviewed). A
// segment a bilingual file already translates keeps its translation. No engine for the pair while segments
// need one fails the translation naming why: never a file left silently in the source language.
import { type Static, Type } from 'typebox';
import { FormatError, TaskFailure } from '../../errors.ts';
import type { UnitTranslation } from '../../formats/filter.ts';
import { filterForName, SUPPORTED_EXTENSIONS } from '../../formats/registry.ts';
import { EXACT_SCORE } from '../../matching/score-bands.ts';
import { nextTurn } from '../../pacing.ts';
import { attemptGoesOn, type TaskContext, taskType } from '../../tasks/task-type.ts';
import { translatedFileName } from '../../text/file-names.ts';
import { repairTarget } from '../../text/placeables.ts';
import { unitCut } from '../../text/segmentation-modes.ts';
import {
  type Extracted,
  extractDocument,
  mergeDocument,
  placeholderMismatches,
} from '../documents/document-thread.ts';
import { contextKey, unitText } from '../documents/segment-plan.ts';
import type { NewSegment } from '../documents/segment-repository.ts';
import { keepUnitsTheMemoryHolds } from '../documents/tm-segmentation.ts';
import { fileBytes } from '../files/service.ts';
import type { IndexCache } from '../memories/index-cache.ts';
import { type BestMatch, bestMatches, searchMemo } from '../memories/service.ts';
import type { MtEngine } from '../mt/engine.ts';
import * as repo from './repository.ts';

/** Segments matched and machine translated per slice; the event loop gets a turn between slices. */
const SLICE = 200;
/** A translated file may be this many times its original's size (a translation runs longer than its source). */
const RESULT_GROWTH = 4;

export const FileTranslationTaskParams = Type.Object({
  translation_id: Type.Integer(),
  /** The uploaded file's name: its extension chooses the format filter; the result is named after it. */
  file_name: Type.String(),
  memory_id: Type.Integer(),
  /** The memory's languages as the filters and the segmentation take them (`en`), and as MT takes them (`en-US`). */
  srclang: Type.String(),
  trglang: Type.String(),
  source_tag: Type.String(),
  target_tag: Type.String(),
  with_tm: Type.Boolean(),
});
export type FileTranslationTaskParams = Static<typeof FileTranslationTaskParams>;

export interface FileTranslationTaskDeps {
  indexes: IndexCache;
  mt: MtEngine;
  maxUploadBytes: number;
}

export function fileTranslationTask(deps: FileTranslationTaskDeps) {
  return taskType({
    name: 'file_translation',
    params: FileTranslationTaskParams,
    run: (_task, params, ctx) => runTranslation(deps, params, ctx),
    // Given up (its process kept dying, or its params do not match): the translation says so, rather than
    // staying in progress for ever. Malformed params still name their translation when they hold its id.
    async giveUp(db, task, params, reason) {
      const id = params?.translation_id ?? translationIdIn(task.params);
      if (id !== undefined) await repo.markFailed(db, id, `The file could not be translated: ${reason}`);
    },
  });
}

function translationIdIn(params: string): number | undefined {
  try {
    const id = (JSON.parse(params) as { translation_id?: unknown }).translation_id;
    return Number.isInteger(id) ? (id as number) : undefined;
  } catch {
    return undefined;
  }
}

async function runTranslation(
  deps: FileTranslationTaskDeps,
  params: FileTranslationTaskParams,
  ctx: TaskContext,
) {
  const { db } = ctx;
  const row = await repo.translationById(db, params.translation_id);
  // Its file or memory was deleted meanwhile (the translation went with it), or an earlier attempt finished.
  if (!row || row.status !== repo.TRANSLATION_STATUSES.inProgress) {
    await ctx.complete(db, { skipped: true });
    return;
  }
  let result: TranslatedFile;
  try {
    result = await translate(deps, row, params, ctx);
  } catch (err) {
    // Interrupted, or cut off from the store: the next attempt starts over, the translation still in progress.
    if (attemptGoesOn(err, ctx.signal)) throw err;
    const message =
      err instanceof TaskFailure ? err.message : `${params.file_name}: the file could not be translated`;
    await repo.markFailed(db, row.id, message);
    throw err;
  }
  await db.transaction(async (tx) => {
    // Its file or memory deleted while it ran: the translation is gone, there is nothing to keep.
    if (!(await repo.translationById(tx, row.id))) {
      await ctx.complete(tx, { skipped: true });
      return;
    }
    await repo.storeResult(tx, row.id, result, RESULT_GROWTH * deps.maxUploadBytes);
    await ctx.complete(tx, {
      segments: result.segments,
      tm_segments: result.tmSegments,
      mt_segments: result.mtSegments,
      source_segments: result.sourceSegments,
    });
  });
}

interface TranslatedFile {
  bytes: Buffer;
  name: string;
  mediaType: string;
  segments: number;
  tmSegments: number;
  mtSegments: number;
  sourceSegments: number;
  mtProvider: string | null;
}

/** A segment's translation: its text, and whether it is confirmed work (a memory match, a file's own). */
interface Written {
  text: string;
  confirmed: boolean;
}

async function translate(
  deps: FileTranslationTaskDeps,
  row: repo.FileTranslationRow,
  params: FileTranslationTaskParams,
  ctx: TaskContext,
): Promise<TranslatedFile> {
  const { db } = ctx;
  const name = params.file_name;
  const filter = filterForName(name);
  if (!filter) {
    throw new TaskFailure(
      `${name}: no format filter reads this file, so it cannot be translated (supported: ${SUPPORTED_EXTENSIONS.join(', ')})`,
      'UNSUPPORTED_FILE_TYPE',
    );
  }
  const doc = { format: filter.name, srclang: params.srclang, trglang: params.trglang };
  const chunks: Buffer[] = [];
  for await (const chunk of fileBytes(db, row.file_id)) chunks.push(chunk);
  const original = Buffer.concat(chunks);

  // Cut as a project set to `auto` cuts it: software strings whole, prose by sentence.
  const cut = unitCut('auto', filter.segmentation);
  let extracted: Extracted;
  try {
    extracted = await extractDocument(original, doc, { by: cut.by });
  } catch (err) {
    if (err instanceof FormatError) throw new TaskFailure(`${name}: ${err.message}`, 'MALFORMED_FILE');
    throw new TaskFailure(`${name}: the file could not be read as ${filter.name}`, 'MALFORMED_FILE');
  }
  let planned = extracted.segments;
  if (params.with_tm && cut.tmDriven) {
    planned = (
      await keepUnitsTheMemoryHolds({ db, indexes: deps.indexes }, params.memory_id, filter.name, planned)
    ).segments;
  }

  const written: (Written | null)[] = planned.map((s) =>
    s.target === null ? null : { text: s.target, confirmed: s.is_confirmed === 1 },
  );
  let tmSegments = 0;
  let mtSegments = 0;
  let sourceSegments = 0;
  let mtProvider: string | null = null;
  const memo = searchMemo();
  const open = planned.flatMap((s, i) => (s.target === null && s.source.trim() !== '' ? [i] : []));
  for (let from = 0; from < open.length; from += SLICE) {
    if (ctx.signal.aborted) throw new Error('interrupted');
    const slice = open.slice(from, from + SLICE);
    const matches: (BestMatch | null)[] = params.with_tm
      ? await bestMatches(
          { db, indexes: deps.indexes },
          params.memory_id,
          slice.map((i) => ({
            source: planned[i].source,
            context: {
              key: contextKey(filter.name, planned[i].context),
              prev: planned[i - 1]?.source ?? null,
              next: planned[i + 1]?.source ?? null,
            },
          })),
          memo,
        )
      : slice.map(() => null);
    const uncovered: number[] = [];
    slice.forEach((i, j) => {
      const match = matches[j];
      if (match && match.score >= EXACT_SCORE) {
        written[i] = { text: repairedMatch(planned[i], match), confirmed: true };
        tmSegments++;
      } else uncovered.push(i);
    });
    if (uncovered.length > 0) {
      const mt = await deps.mt.translate(
        db,
        row.organization_id,
        uncovered.map((i) => planned[i].source),
        params.source_tag,
        params.target_tag,
        {
          termbase: await deps.mt.termbases.of(
            db,
            row.organization_id,
            params.memory_id,
            params.source_tag,
            params.target_tag,
          ),
        },
      );
      if (mt.unavailable !== null) {
        throw new TaskFailure(
          `${name}: segments ${params.with_tm ? 'without a 100 % memory match ' : ''}need machine translation, ` +
            `and there is none from ${params.source_tag} to ${params.target_tag}: ${mt.unavailable}`,
          'MT_UNAVAILABLE',
        );
      }
      mtProvider = mt.provider;
      uncovered.forEach((i, j) => {
        const target = mt.translations[j];
        // The engine's translation lost tags that could not be put back: the segment stays in the source
        // language, counted in the answer, rather than a broken file.
        if (target === null || target === undefined) sourceSegments++;
        else {
          written[i] = { text: target, confirmed: false };
          mtSegments++;
        }
      });
    }
    await ctx.progress(Math.min(from + SLICE, open.length), open.length);
    await nextTurn();
  }

  const translations = unitTranslationsOf(planned, written, extracted.units);
  sourceSegments += await settlePlaceholders(
    original,
    translations,
    doc,
    filter.placeholders?.mismatch,
    planned,
  );
  const bytes = await mergeDocument(original, translations, doc);
  return {
    bytes,
    name: translatedFileName(name, params.srclang, params.target_tag),
    mediaType: filter.mediaType,
    segments: planned.length,
    tmSegments,
    mtSegments,
    sourceSegments,
    mtProvider,
  };
}

/** A 100 % match's target with this segment's placeables where the entry's differ (numbers, tags' ids). */
function repairedMatch(segment: NewSegment, match: BestMatch): string {
  if (match.exact) return match.target;
  return repairTarget(match.source, match.target, segment.source)?.target ?? match.target;
}

/**
 * Each unit's translation, rebuilt from its segments as the document export rebuilds it (unitText): null for
 * a unit none of whose segments has one; confirmed only when every segment of it with one is.
 */
export function unitTranslationsOf(
  planned: readonly NewSegment[],
  written: readonly (Written | null)[],
  units: number,
): (UnitTranslation | null)[] {
  const translations: (UnitTranslation | null)[] = Array.from({ length: units }, () => null);
  const byUnit = new Map<number, number[]>();
  for (const [i, s] of planned.entries()) {
    const indexes = byUnit.get(s.unit_index);
    if (indexes) indexes.push(i);
    else byUnit.set(s.unit_index, [i]);
  }
  for (const [unit, indexes] of byUnit) {
    if (indexes.every((i) => written[i] === null)) continue;
    const text = unitText(indexes.map((i) => ({ ...planned[i], target: written[i]?.text ?? null })));
    const confirmed = indexes.every((i) => written[i] === null || written[i]!.confirmed);
    translations[unit] = { text, confirmed };
  }
  return translations;
}

/**
 * Units whose translation's placeholders the format cannot run (PO, JSON, YAML, Android) become drafts, so
 * that the merge writes them with the format's mark of a draft (PO) or leaves the source (formats without
 * one) instead of a file its tools refuse. Answers how many segments were left in the source that way.
 */
async function settlePlaceholders(
  original: Buffer,
  translations: (UnitTranslation | null)[],
  doc: { format: string; srclang: string; trglang: string },
  mismatch: 'fuzzy' | 'blocked' | undefined,
  planned: readonly NewSegment[],
): Promise<number> {
  if (mismatch === undefined) return 0;
  const found = await placeholderMismatches(original, translations, doc);
  if (found.length === 0) return 0;
  const perUnit = new Map<number, number>();
  for (const s of planned) perUnit.set(s.unit_index, (perUnit.get(s.unit_index) ?? 0) + 1);
  let left = 0;
  for (const { unit } of found) {
    if (mismatch === 'blocked') {
      translations[unit] = null;
      left += perUnit.get(unit) ?? 0;
    } else translations[unit] = { ...translations[unit]!, confirmed: false };
  }
  return left;
}
