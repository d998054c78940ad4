// Terminology: a memory's concepts and their terms — browse and search, create, edit, delete; TBX and CSV
// import (all or nothing) and export; Lilt's lexicon answered from the termbase. Plain values in and out.
import { Readable } from 'node:stream';
import { errors, FileLimitError, FormatError } from '../../errors.ts';
import { readTbx } from '../../formats/tbx/tbx-reader.ts';
import { writeTbx } from '../../formats/tbx/tbx-writer.ts';
import { readTermCsv, writeTermCsv } from '../../formats/tbx/term-csv.ts';
import type { ConceptRecord, TermRecord, TermStatus } from '../../formats/tbx/termbase.ts';
import type { Attachment } from '../../http/attachments.ts';
import type { Principal } from '../../http/principal.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';
import { wordTokens } from '../../terminology/word-alignment.ts';
import { requireFileName } from '../../text/file-names.ts';
import { primaryLanguage } from '../../text/language-tags.ts';
import { concordance, type MemoryDeps, requireMemory } from '../memories/service.ts';
import type { LearnedLexicon } from './learned-lexicon.ts';
import * as repo from './repository.ts';

export interface TermsDeps extends MemoryDeps {
  maxUploadBytes: number;
  maxDecompressedBytes: number;
  /** The lexicons learned from the memories (learned-lexicon.ts). */
  learned: LearnedLexicon;
}

// ---------------------------------------------------------------------------------------------------------
// For the recognizer and term QA (src/terminology/): every term of a memory, plain.

export interface MemoryTerm {
  conceptId: number;
  termId: number;
  lang: string;
  text: string;
  status: TermStatus;
  caseSensitive: boolean;
  partOfSpeech: string | null;
  definition: string | null;
}

/** Every term of a memory of the organization (none for another organization's memory), by concept. */
export async function termsOfMemory(
  db: Queryable,
  organizationId: number,
  memoryId: number,
): Promise<MemoryTerm[]> {
  const rows = await repo.termsOfMemory(db, memoryId, organizationId);
  return rows.map((t) => ({
    conceptId: Number(t.concept_id),
    termId: Number(t.id),
    lang: t.lang,
    text: t.text,
    status: t.status as TermStatus,
    caseSensitive: Number(t.case_sensitive) === 1,
    partOfSpeech: t.part_of_speech,
    definition: t.definition,
  }));
}

/**
 * A stamp of a memory's terms that changes whenever they do (repository.termbaseSignature), and whether it is
 * settled: an edit in the second the stamp is read in may leave the same stamp (the edit time is in seconds),
 * so a stamp of this second must not vouch for a cached copy later.
 */
export async function termbaseStamp(
  db: Queryable,
  organizationId: number,
  memoryId: number,
): Promise<{ stamp: string; settled: boolean }> {
  const { count, ids, latest } = await repo.termbaseSignature(db, memoryId, organizationId);
  return { stamp: `${count}:${ids}:${latest}`, settled: latest < nowSeconds() };
}

/**
 * The terms of a memory in one language pair (either side, matched by primary subtag: an `en` term serves an
 * `en-US` document): what the editor recognizes and term QA checks with.
 */
export async function termsOfPair(
  db: Queryable,
  organizationId: number,
  memoryId: number,
  srcLang: string,
  trgLang: string,
): Promise<MemoryTerm[]> {
  const langs = new Set([primaryLanguage(srcLang), primaryLanguage(trgLang)]);
  return (await termsOfMemory(db, organizationId, memoryId)).filter((t) =>
    langs.has(primaryLanguage(t.lang)),
  );
}

/** A memory's termbase signature: changes whenever a term is added, edited or deleted (repository.ts). */
export function termbaseSignature(db: Queryable, organizationId: number, memoryId: number) {
  return repo.termbaseSignature(db, memoryId, organizationId);
}

// ---------------------------------------------------------------------------------------------------------
// Answers.

function termAnswer(t: repo.TermRow) {
  return {
    id: Number(t.id),
    concept_id: Number(t.concept_id),
    lang: t.lang,
    text: t.text,
    status: t.status as TermStatus,
    case_sensitive: Number(t.case_sensitive) === 1,
    part_of_speech: t.part_of_speech,
    definition: t.definition,
    context: t.context,
    note: t.note,
    created_by: t.created_by,
    updated_by: t.updated_by,
    created_at: Number(t.created_at),
    updated_at: Number(t.updated_at),
  };
}

async function conceptAnswers(db: Queryable, concepts: readonly repo.ConceptRow[]) {
  const terms = await repo.termsOfConcepts(
    db,
    concepts.map((c) => Number(c.id)),
  );
  const byConcept = new Map<number, repo.TermRow[]>();
  for (const t of terms) {
    const list = byConcept.get(Number(t.concept_id));
    if (list) list.push(t);
    else byConcept.set(Number(t.concept_id), [t]);
  }
  return concepts.map((c) => ({
    id: Number(c.id),
    memory_id: Number(c.memory_id),
    external_id: c.external_id,
    domain: c.domain,
    note: c.note,
    created_by: c.created_by,
    updated_by: c.updated_by,
    created_at: Number(c.created_at),
    updated_at: Number(c.updated_at),
    terms: (byConcept.get(Number(c.id)) ?? []).map(termAnswer),
  }));
}

// ---------------------------------------------------------------------------------------------------------
// Browse, search, create, edit, delete.

export interface TermsQueryInput {
  id: number;
  q?: string;
  match?: 'substring' | 'prefix';
  lang?: string;
  offset?: number;
  limit?: number;
}

export async function listConcepts(db: Db, principal: Principal, input: TermsQueryInput) {
  const memory = await requireMemory(db, principal, input.id);
  const q = input.q?.trim();
  const filter: repo.ConceptFilter = { memoryId: memory.id, organizationId: principal.organizationId };
  if (q) {
    const escaped = repo.textKey(q).replace(/[\\%_]/g, (c) => `\\${c}`);
    filter.pattern = input.match === 'prefix' ? `${escaped}%` : `%${escaped}%`;
    if (input.lang) filter.lang = input.lang.toLowerCase();
  }
  const offset = input.offset ?? 0;
  const limit = input.limit ?? 50;
  const [rows, total] = await Promise.all([
    repo.conceptsPage(db, filter, offset, limit),
    repo.countConcepts(db, filter),
  ]);
  return { concepts: await conceptAnswers(db, rows), total, offset, limit };
}

export interface TermInput {
  id?: number;
  lang: string;
  text: string;
  status?: TermStatus;
  case_sensitive?: boolean;
  part_of_speech?: string | null;
  definition?: string | null;
  context?: string | null;
  note?: string | null;
}

export interface ConceptInput {
  domain?: string | null;
  note?: string | null;
  terms: TermInput[];
}

/** A text field: trimmed, empty as null. */
function optional(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

function newTerm(t: TermInput, index: number): repo.NewTerm {
  const text = t.text.trim();
  if (!text) throw errors.badParameter(`Parameter "terms[${index}].text" must not be blank`);
  return {
    lang: t.lang.replace(/_/g, '-'),
    text,
    status: t.status ?? 'preferred',
    case_sensitive: t.case_sensitive ? 1 : 0,
    part_of_speech: optional(t.part_of_speech),
    definition: optional(t.definition),
    context: optional(t.context),
    note: optional(t.note),
  };
}

/** The concept's terms, checked: none blank, none twice in one language. */
function checkedTerms(terms: readonly TermInput[]): repo.NewTerm[] {
  const seen = new Set<string>();
  return terms.map((t, i) => {
    const term = newTerm(t, i);
    const key = `${term.lang.toLowerCase()}\u0000${repo.textKey(term.text)}`;
    if (seen.has(key)) {
      throw errors.badParameter(
        `Parameter "terms[${i}]": "${term.text}" (${term.lang}) is in the concept twice`,
      );
    }
    seen.add(key);
    return term;
  });
}

export async function createConcept(db: Db, principal: Principal, memoryId: number, body: ConceptInput) {
  const memory = await requireMemory(db, principal, memoryId);
  const terms = checkedTerms(body.terms);
  const id = await db.transaction(async (tx) => {
    const conceptId = await repo.insertConcept(tx, {
      organization_id: principal.organizationId,
      memory_id: memory.id,
      external_id: null,
      domain: optional(body.domain),
      note: optional(body.note),
      username: principal.username,
    });
    await repo.insertTerms(
      tx,
      { organization_id: principal.organizationId, memory_id: memory.id, username: principal.username },
      terms.map((t, position) => ({ ...t, concept_id: conceptId, position })),
    );
    return conceptId;
  });
  return requireConcept(db, principal, memory.id, id);
}

async function requireConcept(db: Queryable, principal: Principal, memoryId: number, conceptId: number) {
  const row = await repo.findConcept(db, conceptId, memoryId, principal.organizationId);
  if (!row) throw errors.notFound('Concept', conceptId);
  const [answer] = await conceptAnswers(db, [row]);
  return answer;
}

/**
 * Replaces what the concept says with the body: terms named by id are edited in place (they keep their ids,
 * which the recognizer and QA may hold), new ones are added, those not in the body are deleted.
 */
export async function updateConcept(
  db: Db,
  principal: Principal,
  query: { id: number; concept_id: number },
  body: ConceptInput,
) {
  const memory = await requireMemory(db, principal, query.id);
  const current = await requireConcept(db, principal, memory.id, query.concept_id);
  const terms = checkedTerms(body.terms);
  const existing = new Set(current.terms.map((t) => t.id));
  const named = new Set<number>();
  body.terms.forEach((t, i) => {
    if (t.id === undefined) return;
    if (!existing.has(t.id)) {
      throw errors.badParameter(
        `Parameter "terms[${i}].id": term ${t.id} is not a term of concept ${current.id}`,
      );
    }
    if (named.has(t.id)) throw errors.badParameter(`Parameter "terms[${i}].id": term ${t.id} is named twice`);
    named.add(t.id);
  });
  await db.transaction(async (tx) => {
    await repo.updateConcept(
      tx,
      current.id,
      { domain: optional(body.domain), note: optional(body.note) },
      principal.username,
    );
    const kept = body.terms.flatMap((t) => (t.id === undefined ? [] : [t.id]));
    await repo.deleteTerms(tx, current.id, kept);
    const added: (repo.NewTerm & { concept_id: number; position: number })[] = [];
    for (const [position, t] of terms.entries()) {
      const id = body.terms[position].id;
      if (id === undefined) added.push({ ...t, concept_id: current.id, position });
      else await repo.updateTerm(tx, id, { ...t, position }, principal.username);
    }
    await repo.insertTerms(
      tx,
      { organization_id: principal.organizationId, memory_id: memory.id, username: principal.username },
      added,
    );
  });
  return requireConcept(db, principal, memory.id, current.id);
}

export async function deleteConcept(db: Db, principal: Principal, query: { id: number; concept_id: number }) {
  const memory = await requireMemory(db, principal, query.id);
  const concept = await repo.findConcept(db, query.concept_id, memory.id, principal.organizationId);
  if (!concept) throw errors.notFound('Concept', query.concept_id);
  await db.transaction((tx) => repo.deleteConcept(tx, concept.id, principal.organizationId));
  return { id: Number(concept.id), deleted: true };
}

// ---------------------------------------------------------------------------------------------------------
// Import and export.

export const TERM_FILE_EXTENSIONS = ['.tbx', '.tbx.gz', '.csv', '.csv.gz'];

export function termFileFormat(name: string): 'tbx' | 'csv' | undefined {
  const lower = name.toLowerCase();
  if (lower.endsWith('.tbx') || lower.endsWith('.tbx.gz')) return 'tbx';
  if (lower.endsWith('.csv') || lower.endsWith('.csv.gz')) return 'csv';
  return undefined;
}

/** Whether POST /v2/memories/import should hand an upload to the termbase: `.tbx`, or `.csv` with has_header_row. */
export function isTermFile(name: string, hasHeaderRow: boolean | undefined): boolean {
  const format = termFileFormat(name);
  return format === 'tbx' || (format === 'csv' && hasHeaderRow !== undefined);
}

/** The body's bytes, refused with 413 past the upload limit (a raw body has no other bound). */
async function* bounded(file: AsyncIterable<Buffer>, maxBytes: number): AsyncGenerator<Buffer> {
  let bytes = 0;
  for await (const chunk of file) {
    bytes += chunk.length;
    if (bytes > maxBytes) throw errors.payloadTooLarge(maxBytes);
    yield chunk;
  }
}

/**
 * Reads a TBX or termbase CSV file whole and adds its concepts to the memory in one transaction: a file with
 * an error anywhere adds nothing, and the 400 names the line and column. The file's concepts are held in
 * memory while it is read (the upload limit bounds them).
 */
export async function importTermFile(
  deps: TermsDeps,
  principal: Principal,
  params: { memory_id: number; name: string; has_header_row?: boolean },
  file: AsyncIterable<Buffer>,
) {
  const name = requireFileName(params.name);
  const memory = await requireMemory(deps.db, principal, params.memory_id);
  const format = termFileFormat(name);
  if (!format) {
    for await (const _ of bounded(file, deps.maxUploadBytes));
    throw errors.unsupportedMediaType(name, TERM_FILE_EXTENSIONS);
  }
  const input = bounded(file, deps.maxUploadBytes);
  const concepts: ConceptRecord[] = [];
  let skipped = 0;
  try {
    if (format === 'tbx') {
      for await (const concept of readTbx(input, { maxDecompressedBytes: deps.maxDecompressedBytes })) {
        concepts.push(concept);
      }
    } else {
      const reader = readTermCsv(input, {
        srclang: memory.srclang,
        trglang: memory.trglang,
        hasHeaderRow: params.has_header_row,
        maxDecompressedBytes: deps.maxDecompressedBytes,
      });
      for await (const concept of reader) concepts.push(concept);
      skipped = reader.stats.skipped;
    }
  } catch (err) {
    if (err instanceof FileLimitError) throw errors.malformedFile(`${name}: ${err.message}`);
    if (err instanceof FormatError) throw errors.malformedFile(`${name}: ${err.message}`);
    throw err;
  }
  const terms = await storeConcepts(deps.db, principal, memory.id, concepts);
  return { id: memory.id, concepts: concepts.length, terms, skipped };
}

async function storeConcepts(
  db: Db,
  principal: Principal,
  memoryId: number,
  concepts: readonly ConceptRecord[],
): Promise<number> {
  const owner = {
    organization_id: principal.organizationId,
    memory_id: memoryId,
    username: principal.username,
  };
  const now = nowSeconds();
  let count = 0;
  await db.transaction(
    async (tx) => {
      let pending: (repo.NewTerm & { concept_id: number; position: number })[] = [];
      for (const concept of concepts) {
        const conceptId = await repo.insertConcept(
          tx,
          {
            ...owner,
            external_id: concept.externalId ?? null,
            domain: concept.domain ?? null,
            note: concept.note ?? null,
          },
          now,
        );
        concept.terms.forEach((t, position) => {
          pending.push({ ...storedTerm(t), concept_id: conceptId, position });
        });
        if (pending.length >= 500) {
          count += pending.length;
          await repo.insertTerms(tx, owner, pending, now);
          pending = [];
        }
      }
      count += pending.length;
      await repo.insertTerms(tx, owner, pending, now);
    },
    { bulk: true },
  );
  return count;
}

function storedTerm(t: TermRecord): repo.NewTerm {
  return {
    lang: t.lang,
    text: t.text,
    status: t.status,
    case_sensitive: t.caseSensitive ? 1 : 0,
    part_of_speech: t.partOfSpeech ?? null,
    definition: t.definition ?? null,
    context: t.context ?? null,
    note: t.note ?? null,
  };
}

/** The memory's concepts page by page, as the writers take them. */
async function* conceptRecords(db: Db, memoryId: number) {
  for (let afterId = 0; ; ) {
    const rows = await repo.conceptsAfter(db, memoryId, afterId, 500);
    const terms = await repo.termsOfConcepts(
      db,
      rows.map((r) => Number(r.id)),
    );
    for (const row of rows) {
      const own = terms.filter((t) => Number(t.concept_id) === Number(row.id));
      yield {
        id: Number(row.id),
        domain: row.domain ?? undefined,
        note: row.note ?? undefined,
        createdAt: Number(row.created_at),
        updatedAt: Number(row.updated_at),
        terms: own.map((t) => ({
          lang: t.lang,
          text: t.text,
          status: t.status as TermStatus,
          caseSensitive: Number(t.case_sensitive) === 1,
          partOfSpeech: t.part_of_speech ?? undefined,
          definition: t.definition ?? undefined,
          context: t.context ?? undefined,
          note: t.note ?? undefined,
        })),
      };
    }
    if (rows.length < 500) return;
    afterId = Number(rows[rows.length - 1].id);
  }
}

/** The memory's termbase as TBX-Basic (v3 by default, v2 on request) or Lilt's CSV. */
export async function exportTerms(
  db: Db,
  principal: Principal,
  query: { id: number; format?: 'tbx' | 'csv'; version?: number },
): Promise<Attachment> {
  const memory = await requireMemory(db, principal, query.id);
  const base = memory.name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_') || `memory-${memory.id}`;
  if (query.format === 'csv') {
    return {
      body: Readable.from(writeTermCsv(conceptRecords(db, memory.id), memory)),
      contentType: 'text/csv; charset=utf-8',
      fileName: `${base}.termbase.csv`,
    };
  }
  const version = query.version === 2 ? 2 : 3;
  return {
    body: Readable.from(
      writeTbx(conceptRecords(db, memory.id), {
        lang: memory.srclang,
        source: `Tessera: termbase of the memory "${memory.name}"`,
        version,
      }),
    ),
    contentType: 'application/x-tbx+xml',
    fileName: `${base}.tbx`,
  };
}

/** Lilt's POST /v2/memories/termbase/export: nothing to prepare here, the download writes the file as it goes. */
export async function startTermbaseExport(db: Db, principal: Principal, memoryId: number) {
  const memory = await requireMemory(db, principal, memoryId);
  return { id: memory.id, is_processing: 0 };
}

// ---------------------------------------------------------------------------------------------------------
// Lilt's lexicon.

const primary = (lang: string) => lang.toLowerCase().split(/[-_]/)[0];
const STATUS_ORDER: Record<string, number> = { preferred: 0, admitted: 1, deprecated: 2, forbidden: 3 };

/**
 * GET /v2/lexicon: the termbase's translations of the query (a term of the source language, case aside) into
 * the target language, best status first — never a forbidden one — then, up to `n`, the translations learned
 * from the memory's own pairs (in the memory's direction only; never one the termbase forbids or deprecates
 * for that term), and examples of it from the memory's concordance.
 */
export async function queryLexicon(
  deps: MemoryDeps & { learned?: LearnedLexicon },
  principal: Principal,
  input: { memory_id: number; srclang: string; trglang: string; query: string; n?: number },
) {
  const memory = await requireMemory(deps.db, principal, input.memory_id);
  const query = input.query.trim();
  if (!query) throw errors.badParameter('Parameter "query" must not be blank');
  const n = input.n ?? 10;
  const src = primary(input.srclang);
  const trg = primary(input.trglang);
  const sources = (
    await repo.termsByKey(deps.db, memory.id, principal.organizationId, repo.textKey(query))
  ).filter((t) => primary(t.lang) === src);
  const terms = await repo.termsOfConcepts(deps.db, [...new Set(sources.map((t) => Number(t.concept_id)))]);
  const translations = new Map<
    string,
    { source: string; target: string; frequency: number; status: TermStatus }
  >();
  /** Target terms the termbase advises against for this query: a learned translation never offers them. */
  const advisedAgainst = new Set<string>();
  for (const t of terms) {
    if (primary(t.lang) !== trg) continue;
    if (t.status === 'forbidden' || t.status === 'deprecated') advisedAgainst.add(repo.textKey(t.text));
    if (t.status === 'forbidden') continue;
    const source = sources.find((s) => Number(s.concept_id) === Number(t.concept_id))!;
    const known = translations.get(t.text);
    if (known) known.frequency++;
    else
      translations.set(t.text, {
        source: source.text,
        target: t.text,
        frequency: 1,
        status: t.status as TermStatus,
      });
  }
  const ranked: {
    source: string;
    target: string;
    frequency: number;
    status: TermStatus | null;
    origin: 'termbase' | 'memory';
    memory_id: number;
  }[] = [...translations.values()]
    .sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || b.frequency - a.frequency)
    .slice(0, n)
    .map((t) => ({ ...t, origin: 'termbase' as const, memory_id: memory.id }));
  const memoryDirection = src === primary(memory.srclang) && trg === primary(memory.trglang);
  if (memoryDirection && ranked.length < n && deps.learned) {
    const learned = await deps.learned.translations(memory, query, n);
    const offered = new Set(ranked.map((t) => repo.textKey(t.target)));
    for (const t of learned ?? []) {
      const key = repo.textKey(t.target);
      if (ranked.length >= n || offered.has(key) || advisedAgainst.has(key)) continue;
      offered.add(key);
      ranked.push({
        source: query,
        target: t.target,
        frequency: t.count,
        status: null,
        origin: 'memory',
        memory_id: memory.id,
      });
    }
  }
  let examples: { source: string; target: string; memory_id: number }[] = [];
  if (memoryDirection) {
    const hits = await concordance(deps, principal, { id: memory.id, query, n });
    examples = hits.map((h) => ({ source: h.source, target: h.target, memory_id: memory.id }));
  }
  return [{ translations: ranked, examples }];
}

/**
 * GET /v2/memories/terms/candidates: phrases the memory translates consistently that are not terms yet, for
 * a project manager to accept into the termbase (the learned lexicon's candidates).
 */
export async function termCandidates(
  deps: { db: Queryable; learned: LearnedLexicon },
  principal: Principal,
  input: { id: number; n?: number },
) {
  const memory = await requireMemory(deps.db, principal, input.id);
  const src = primary(memory.srclang);
  const known = (await repo.termsOfMemory(deps.db, memory.id, principal.organizationId))
    .filter((t) => primary(t.lang) === src)
    .map((t) => wordTokens(t.text).norms.join(' '));
  const candidates = await deps.learned.candidates(memory, input.n ?? 50, known);
  return {
    state:
      candidates !== null
        ? ('ready' as const)
        : memory.num_segments > 0
          ? ('learning' as const)
          : ('empty' as const),
    candidates: (candidates ?? []).map((c) => ({
      source: c.source,
      target: c.target,
      frequency: c.count,
      share: c.share,
    })),
  };
}

/** POST /v2/lexicon: a concept of the source term (the memory's source language) and its target term. */
export async function addLexiconEntry(
  db: Db,
  principal: Principal,
  body: { memory_id: number; source: string; target: string },
) {
  const memory = await requireMemory(db, principal, body.memory_id);
  await createConcept(db, principal, memory.id, {
    terms: [
      { lang: memory.srclang, text: body.source },
      { lang: memory.trglang, text: body.target },
    ],
  });
  return { memory_id: memory.id, success: true };
}
