// The resources of the Tessera REST API v2 as the web application reads them (docs/API.md): each one the static
// type of the server's own TypeBox schema (src/modules/*/schemas.ts), so that a change of an answer's shape on
// the server breaks the web's typecheck. Only what the schemas leave as a plain string is narrowed here.
import type * as documents from '@server/modules/documents/schemas.ts';
import type * as files from '@server/modules/files/schemas.ts';
import type * as jobs from '@server/modules/jobs/schemas.ts';
import type * as languages from '@server/modules/languages/schemas.ts';
import type * as memories from '@server/modules/memories/schemas.ts';
import type * as projects from '@server/modules/projects/schemas.ts';
import type * as segments from '@server/modules/segments/schemas.ts';
import type * as tasks from '@server/modules/tasks/schemas.ts';
import type * as users from '@server/modules/users/schemas.ts';
import type * as workflows from '@server/modules/workflows/schemas.ts';
import type { Static } from 'typebox';

/**
 * A server shape with some fields narrowed to the values the server sends where its schema says only `string`.
 * Each narrowed field must exist on the server's shape and fit its type: a field renamed or retyped there still
 * breaks the typecheck here.
 */
type Narrowed<T, N extends { [K in keyof N]: K extends keyof T ? T[K] : never }> = Omit<T, keyof N> & N;

export type Role = NonNullable<Static<typeof users.CreateUserBody>['role']>;
export type ProjectState = NonNullable<Static<typeof projects.UpdateProjectBody>['state']>;
export type SegmentStatus = keyof Static<typeof documents.SegmentsPage>['counts'];

/** Every segment status, in the order the editor lists them: a Record, which breaks the typecheck when the server
 * adds or drops one. */
const EVERY_STATUS: Record<SegmentStatus, true> = {
  new: true,
  draft: true,
  pretranslated: true,
  confirmed: true,
  reviewed: true,
};
export const SEGMENT_STATUSES = Object.keys(EVERY_STATUS) as readonly SegmentStatus[];

export type Caller = Narrowed<Static<typeof users.Caller>, { role: Role }>;
export type User = Narrowed<Static<typeof users.User>, { role: Role }>;
export type ApiKeyRow = Static<typeof users.ApiKey>;
export type CreatedKey = Static<typeof users.CreatedKey>;

export type Languages = Static<typeof languages.LanguagesAnswer>;

export type Memory = Static<typeof memories.Memory>;
export type MemoryMatch = Static<typeof memories.TranslationMemoryEntry>;
export type ConcordanceHit = Narrowed<
  Static<typeof memories.ConcordanceEntry>,
  { side: 'source' | 'target'; offsets: [number, number][] }
>;
export type MemoryEntriesPage = Static<typeof memories.EntriesPage>;
export type MemoryEntry = MemoryEntriesPage['entries'][number];
export type MemoryEntryHistory = Static<typeof memories.EntryHistory>;

export type TesseraDocument = Static<typeof documents.Document>;
export type Project = Narrowed<Static<typeof projects.Project>, { state: ProjectState }>;

export type DocumentSegment = Narrowed<Static<typeof documents.DocumentSegment>, { status: SegmentStatus }>;
export type SegmentsPage = Narrowed<Static<typeof documents.SegmentsPage>, { segments: DocumentSegment[] }>;
export type DocumentQa = Static<typeof documents.QaReport>;
export type ReplaceRequest = Static<typeof documents.ReplaceBody>;
export type ReplaceResult = Static<typeof documents.ReplaceAnswer>;
export type SegmentHistory = Static<typeof segments.SegmentHistory>;
export type SegmentVersion = SegmentHistory['versions'][number];

export type Task = Static<typeof tasks.Task>;

/** A Lilt job: one source, several target languages, a project per language pair. */
export type Job = Static<typeof jobs.Job>;
/** POST /v2/jobs: Lilt's fields (camelCase). */
export type CreateJobRequest = Static<typeof jobs.CreateJobBody>;
export type JobLeverage = Static<typeof jobs.JobLeverageStats>;
/** The analysis's bands (101 % context … new) and their weights, in percent of a new word. */
export type LeverageBand = jobs.LeverageBand;
export type AnalysisWeights = Static<typeof jobs.AnalysisWeights>;
export type UpdateWeightsBody = Static<typeof jobs.UpdateWeightsBody>;
/** Lilt's project status with words by segment status (extension). */
export type ProjectStatus = Static<typeof projects.ProjectStatus>;
export type WordsByStatus = Static<typeof documents.WordsByStatus>;
export type DocumentWords = Static<typeof documents.DocumentWords>;
/** A source file uploaded for jobs (POST /v2/files). */
export type SourceFile = Static<typeof files.SourceFile>;

// What the web sends, and the answers that are no resource.
export type SignInBody = Static<typeof users.SignInBody>;
export type SignedOut = Static<typeof users.SignedOut>;
export type CreateUserBody = Static<typeof users.CreateUserBody>;
export type UpdateUserBody = Static<typeof users.UpdateUserBody>;
export type ChangePasswordBody = Static<typeof users.ChangePasswordBody>;
export type PasswordChanged = Static<typeof users.PasswordChanged>;
export type CreateKeyBody = Static<typeof users.CreateKeyBody>;
export type CreateMemoryBody = Static<typeof memories.CreateMemoryBody>;
export type BrowseEntriesQuery = Static<typeof memories.BrowseEntriesQuery>;
export type UpdateEntryBody = Static<typeof memories.UpdateEntryBody>;
export type MemoryEntrySegment = Static<typeof memories.MemoryEntrySegment>;
export type ImportStarted = Static<typeof memories.ImportStarted>;
export type CreateProjectBody = Static<typeof projects.CreateProjectBody>;
export type UpdateProjectBody = Static<typeof projects.UpdateProjectBody>;
export type PretranslateAnswer = Static<typeof documents.PretranslateAnswer>;
export type UndoReplaceAnswer = Static<typeof documents.UndoReplaceAnswer>;
export type UpdateSegmentBody = Static<typeof segments.UpdateSegmentBody>;
export type RestoreBody = Static<typeof segments.RestoreBody>;
export type JoinBody = Static<typeof segments.JoinBody>;
export type SplitBody = Static<typeof segments.SplitBody>;
export type ReshapeAnswer = Narrowed<Static<typeof segments.ReshapeAnswer>, { segments: DocumentSegment[] }>;
export type Segmentation = NonNullable<Static<typeof projects.UpdateProjectBody>['segmentation']>;

export type WorkflowTemplate = Static<typeof workflows.WorkflowTemplate>;
export type AssignDocumentBody = Static<typeof workflows.AssignDocumentBody>;
export type LockSegmentsBody = Static<typeof workflows.LockSegmentsBody>;
/** Where a document is in its workflow (documents' `stage`). */
export type Stage = 'translate' | 'review' | 'review2' | 'done';
