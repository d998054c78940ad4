// SQL for terminology: the one owner of term_concepts and terms (migration 048).
import type { Queryable, SqlParam } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';

export interface ConceptRow {
  id: number;
  organization_id: number;
  memory_id: number;
  external_id: string | null;
  domain: string | null;
  note: string | null;
  created_by: string | null;
  updated_by: string | null;
  created_at: number;
  updated_at: number;
}

export interface TermRow {
  id: number;
  organization_id: number;
  memory_id: number;
  concept_id: number;
  lang: string;
  text: string;
  text_key: string;
  status: string;
  case_sensitive: number;
  part_of_speech: string | null;
  definition: string | null;
  context: string | null;
  note: string | null;
  position: number;
  created_by: string | null;
  updated_by: string | null;
  created_at: number;
  updated_at: number;
}

export type NewConcept = Pick<
  ConceptRow,
  'organization_id' | 'memory_id' | 'external_id' | 'domain' | 'note'
> & {
  username: string | null;
};

export type NewTerm = Pick<
  TermRow,
  'lang' | 'text' | 'status' | 'case_sensitive' | 'part_of_speech' | 'definition' | 'context' | 'note'
>;

/** The key a term is searched by: its text lower-cased, here rather than by SQL so both stores agree. */
export function textKey(text: string): string {
  return text.toLowerCase();
}

export async function insertConcept(db: Queryable, c: NewConcept, now = nowSeconds()): Promise<number> {
  const row = await db.get<{ id: number }>(
    `INSERT INTO term_concepts (organization_id, memory_id, external_id, domain, note, created_by, updated_by,
       created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [c.organization_id, c.memory_id, c.external_id, c.domain, c.note, c.username, c.username, now, now],
  );
  return Number(row!.id);
}

export async function updateConcept(
  db: Queryable,
  id: number,
  fields: Pick<ConceptRow, 'domain' | 'note'>,
  username: string | null,
): Promise<void> {
  await db.run('UPDATE term_concepts SET domain = ?, note = ?, updated_by = ?, updated_at = ? WHERE id = ?', [
    fields.domain,
    fields.note,
    username,
    nowSeconds(),
    id,
  ]);
}

const TERM_COLUMNS = [
  'organization_id',
  'memory_id',
  'concept_id',
  'lang',
  'text',
  'text_key',
  'status',
  'case_sensitive',
  'part_of_speech',
  'definition',
  'context',
  'note',
  'position',
  'created_by',
  'updated_by',
  'created_at',
  'updated_at',
] as const;

/** Terms of concepts, in as few statements as the store allows. */
export async function insertTerms(
  db: Queryable,
  owner: { organization_id: number; memory_id: number; username: string | null },
  terms: readonly (NewTerm & { concept_id: number; position: number })[],
  now = nowSeconds(),
): Promise<void> {
  const rows: SqlParam[][] = terms.map((t) => [
    owner.organization_id,
    owner.memory_id,
    t.concept_id,
    t.lang,
    t.text,
    textKey(t.text),
    t.status,
    t.case_sensitive,
    t.part_of_speech,
    t.definition,
    t.context,
    t.note,
    t.position,
    owner.username,
    owner.username,
    now,
    now,
  ]);
  for (let i = 0; i < rows.length; i += 500) {
    await db.insertMany('terms', TERM_COLUMNS, rows.slice(i, i + 500));
  }
}

export async function updateTerm(
  db: Queryable,
  id: number,
  t: NewTerm & { position: number },
  username: string | null,
): Promise<void> {
  await db.run(
    `UPDATE terms SET lang = ?, text = ?, text_key = ?, status = ?, case_sensitive = ?, part_of_speech = ?,
       definition = ?, context = ?, note = ?, position = ?, updated_by = ?, updated_at = ?
     WHERE id = ?`,
    [
      t.lang,
      t.text,
      textKey(t.text),
      t.status,
      t.case_sensitive,
      t.part_of_speech,
      t.definition,
      t.context,
      t.note,
      t.position,
      username,
      nowSeconds(),
      id,
    ],
  );
}

export async function deleteTerms(db: Queryable, conceptId: number, keep: readonly number[]): Promise<void> {
  if (keep.length === 0) {
    await db.run('DELETE FROM terms WHERE concept_id = ?', [conceptId]);
    return;
  }
  await db.run(`DELETE FROM terms WHERE concept_id = ? AND id NOT IN (${keep.map(() => '?').join(', ')})`, [
    conceptId,
    ...keep,
  ]);
}

export async function deleteConcept(db: Queryable, id: number, organizationId: number): Promise<number> {
  // The concept's terms go with it (ON DELETE CASCADE).
  await db.run('DELETE FROM terms WHERE concept_id = ? AND organization_id = ?', [id, organizationId]);
  const { changes } = await db.run('DELETE FROM term_concepts WHERE id = ? AND organization_id = ?', [
    id,
    organizationId,
  ]);
  return changes;
}

export function findConcept(db: Queryable, id: number, memoryId: number, organizationId: number) {
  return db.get<ConceptRow>(
    'SELECT * FROM term_concepts WHERE id = ? AND memory_id = ? AND organization_id = ?',
    [id, memoryId, organizationId],
  );
}

export interface ConceptFilter {
  memoryId: number;
  organizationId: number;
  /** A lower-cased LIKE pattern over the terms' text_key, escaped with "\". */
  pattern?: string;
  /** Primary language subtag the matching term must be in. */
  lang?: string;
}

function filterSql(f: ConceptFilter): { where: string; params: SqlParam[] } {
  let where = 'c.memory_id = ? AND c.organization_id = ?';
  const params: SqlParam[] = [f.memoryId, f.organizationId];
  if (f.pattern !== undefined) {
    // EXISTS over the concept's own terms (terms_concept): a probe per concept, whatever the planner knows of
    // the tables. An IN (subquery) over every term of the memory was planned as a nested loop on PostgreSQL
    // before the tables were analysed — 50 s for 20,000 concepts.
    let sub = "SELECT 1 FROM terms t WHERE t.concept_id = c.id AND t.text_key LIKE ? ESCAPE '\\'";
    params.push(f.pattern);
    if (f.lang) {
      sub += ' AND (t.lang = ? OR t.lang LIKE ?)';
      params.push(f.lang, `${f.lang}-%`);
    }
    where += ` AND EXISTS (${sub})`;
  }
  return { where, params };
}

export function conceptsPage(db: Queryable, f: ConceptFilter, offset: number, limit: number) {
  const { where, params } = filterSql(f);
  return db.all<ConceptRow>(`SELECT c.* FROM term_concepts c WHERE ${where} ORDER BY c.id LIMIT ? OFFSET ?`, [
    ...params,
    limit,
    offset,
  ]);
}

export async function countConcepts(db: Queryable, f: ConceptFilter): Promise<number> {
  const { where, params } = filterSql(f);
  const row = await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM term_concepts c WHERE ${where}`, params);
  return Number(row?.n ?? 0);
}

/** Concepts of a memory after an id, for exports page by page. */
export function conceptsAfter(db: Queryable, memoryId: number, afterId: number, limit: number) {
  return db.all<ConceptRow>(
    'SELECT * FROM term_concepts WHERE memory_id = ? AND id > ? ORDER BY id LIMIT ?',
    [memoryId, afterId, limit],
  );
}

export async function termsOfConcepts(db: Queryable, conceptIds: readonly number[]): Promise<TermRow[]> {
  if (conceptIds.length === 0) return [];
  return db.all<TermRow>(
    `SELECT * FROM terms WHERE concept_id IN (${conceptIds.map(() => '?').join(', ')})
     ORDER BY concept_id, position, id`,
    conceptIds,
  );
}

/** Every term of a memory, by concept (the recognizer's input). */
export function termsOfMemory(db: Queryable, memoryId: number, organizationId: number) {
  return db.all<TermRow>(
    'SELECT * FROM terms WHERE memory_id = ? AND organization_id = ? ORDER BY concept_id, position, id',
    [memoryId, organizationId],
  );
}

/** Terms of a memory whose text is exactly this one, case aside. */
export function termsByKey(db: Queryable, memoryId: number, organizationId: number, key: string) {
  return db.all<TermRow>(
    'SELECT * FROM terms WHERE memory_id = ? AND organization_id = ? AND text_key = ? ORDER BY concept_id, id',
    [memoryId, organizationId, key],
  );
}

/**
 * What changes whenever a memory's terms do: their count, the sum of their ids (a deletion followed by an
 * insertion changes it) and the latest edit's second. Callers that cache a termbase ask this instead of
 * reading every term; an edit in the same second as the read is theirs to guard (see mt/termbase.ts).
 */
export async function termbaseSignature(db: Queryable, memoryId: number, organizationId: number) {
  const row = await db.get<{ n: number; ids: number; latest: number }>(
    `SELECT COUNT(*) AS n, COALESCE(SUM(id), 0) AS ids, COALESCE(MAX(updated_at), 0) AS latest
     FROM terms WHERE memory_id = ? AND organization_id = ?`,
    [memoryId, organizationId],
  );
  return { count: Number(row?.n ?? 0), ids: Number(row?.ids ?? 0), latest: Number(row?.latest ?? 0) };
}
