// The resources of the Tessera REST API v2 as the web application reads them (docs/API.md): each one the static
// type of the server's own TypeBox schema (src/modules/*/schemas.ts, the shared shapes of src/http/schemas.ts),
// so that a change of an answer's shape on the server breaks the web's typecheck. Nothing here is written by
// hand but the offsets of a concordance hit, which the schema says are pairs and TypeBox types as arrays.
import type * as shared from '@server/http/schemas.ts';
import type * as comments from '@server/modules/comments/schemas.ts';
import type * as documents from '@server/modules/documents/schemas.ts';
import type * as files from '@server/modules/files/schemas.ts';
import type * as jobs from '@server/modules/jobs/schemas.ts';
import type * as languages from '@server/modules/languages/schemas.ts';
import type * as memories from '@server/modules/memories/schemas.ts';
import type * as mt from '@server/modules/mt/schemas.ts';
import type * as mtSettings from '@server/modules/mt/settings-schemas.ts';
import type * as notifications from '@server/modules/notifications/schemas.ts';
import type * as projects from '@server/modules/projects/schemas.ts';
import type * as quality from '@server/modules/quality/schemas.ts';
import type * as review from '@server/modules/review/schemas.ts';
import type * as segments from '@server/modules/segments/schemas.ts';
import type * as tasks from '@server/modules/tasks/schemas.ts';
import type * as terms from '@server/modules/terms/schemas.ts';
import type * as users from '@server/modules/users/schemas.ts';
import type * as workflows from '@server/modules/workflows/schemas.ts';
import type { Static } from 'typebox';

/**
 * A server shape with some fields narrowed. Each narrowed field must exist on the server's shape and fit its
 * type: a field renamed or retyped there still breaks the typecheck here.
 */
type Narrowed<T, N extends { [K in keyof N]: K extends keyof T ? T[K] : never }> = Omit<T, keyof N> & N;

export type Role = Static<typeof users.Caller>['role'];
export type ProjectState = Static<typeof projects.Project>['state'];
export type SegmentStatus = Static<typeof documents.DocumentSegment>['status'];

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

export type Caller = Static<typeof users.Caller>;
export type User = Static<typeof users.User>;
export type ApiKeyRow = Static<typeof users.ApiKey>;
export type CreatedKey = Static<typeof users.CreatedKey>;

export type Languages = Static<typeof languages.LanguagesAnswer>;

export type Memory = Static<typeof memories.Memory>;
export type MemoryMatch = Static<typeof memories.TranslationMemoryEntry>;
/** A segment's machine translation, named by its engine (extension). */
export type MtSuggestion = Static<typeof mt.MtSuggestion>;
/** A segment's fuzzy matches repaired by machine translation (extension). */
export type RepairList = Static<typeof mt.RepairList>;
export type MtEngines = Static<typeof mtSettings.EnginesAnswer>;
export type MtEngine = Static<typeof mtSettings.Engine>;
export type MtEngineKind = Static<typeof mtSettings.EngineKind>;
export type MtEngineTest = Static<typeof mtSettings.EngineTestAnswer>;
export type CreateMtEngineBody = Static<typeof mtSettings.CreateEngineBody>;
export type UpdateMtEngineBody = Static<typeof mtSettings.UpdateEngineBody>;
export type ConcordanceHit = Narrowed<
  Static<typeof memories.ConcordanceEntry>,
  { offsets: [number, number][] }
>;
export type MemoryEntriesPage = Static<typeof memories.EntriesPage>;
export type MemoryEntry = MemoryEntriesPage['entries'][number];
export type MemoryEntryHistory = Static<typeof memories.EntryHistory>;

export type TesseraDocument = Static<typeof documents.Document>;
export type Project = Static<typeof projects.Project>;

export type DocumentSegment = Static<typeof documents.DocumentSegment>;
export type SegmentsPage = Static<typeof documents.SegmentsPage>;
export type DocumentQa = Static<typeof documents.QaReport>;
export type DocumentTerms = Static<typeof documents.DocumentTerms>;
export type ReplaceRequest = Static<typeof documents.ReplaceBody>;
export type ReplaceResult = Static<typeof documents.ReplaceAnswer>;
export type SegmentHistory = Static<typeof segments.SegmentHistory>;
export type SegmentVersion = SegmentHistory['versions'][number];

export type Task = Static<typeof tasks.Task>;

/** A comment on a segment or a document (Lilt's Comment with Tessera's threads and mentions). */
export type Comment = Static<typeof comments.Comment>;
/** GET /v2/comments: a document's comments by segment id, those on the document under "document". */
export type DocumentComments = Static<typeof comments.DocumentComments>;
export type CommentBody = Static<typeof comments.CommentBody>;
export type Notification = Static<typeof notifications.Notification>;
export type NotificationsPage = Static<typeof notifications.NotificationsPage>;
export type MarkReadAnswer = Static<typeof notifications.MarkReadAnswer>;
export type RejectAnswer = Narrowed<Static<typeof segments.RejectAnswer>, { segment: DocumentSegment }>;

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
export type ReshapeAnswer = Static<typeof segments.ReshapeAnswer>;
export type Segmentation = NonNullable<Static<typeof projects.UpdateProjectBody>['segmentation']>;

// The answers of deletions, and the parameters the client sends in pieces.
export type Deleted = Static<typeof shared.Deleted>;
export type ErrorBody = shared.ErrorBody;
export type JobAction = jobs.JobAction;
export type EntryDeleted = Static<typeof memories.EntryDeleted>;
export type RenameMemoryBody = Static<typeof memories.RenameMemoryBody>;
export type RenameDocumentBody = Static<typeof documents.RenameDocumentBody>;
export type UndoReplaceBody = Static<typeof documents.UndoReplaceBody>;
/** What pre-translation is asked to confirm by itself (auto-accept and its scope). */
export type PretranslateAccept = Pick<
  Static<typeof documents.PretranslateBody>,
  'auto_accept' | 'auto_accept_scope'
>;
export type SegmentsPageQuery = Static<typeof documents.SegmentsPageQuery>;
export type ConcordanceSide = NonNullable<Static<typeof memories.ConcordanceParams>['side']>;
// Review and quality (issue 26).
export type Annotation = Static<typeof quality.Annotation>;
export type CreateAnnotationBody = Static<typeof quality.CreateAnnotationBody>;
export type UpdateAnnotationBody = Static<typeof quality.UpdateAnnotationBody>;
export type QualityScore = Static<typeof quality.QualityScore>;
export type QualityReport = Static<typeof quality.QualityReport>;
export type QualitySettings = Static<typeof quality.QualitySettings>;
export type ReviewBaselines = Static<typeof review.ReviewBaselines>;
export type ReviewProgress = Static<typeof review.ReviewProgress>;
export type WorkflowTemplate = Static<typeof workflows.WorkflowTemplate>;
export type AssignDocumentBody = Static<typeof workflows.AssignDocumentBody>;
export type LockSegmentsBody = Static<typeof workflows.LockSegmentsBody>;
/** Where a document is in its workflow (documents' `stage`). */
export type Stage = TesseraDocument['stage'];

export type TermConcept = Static<typeof terms.Concept>;
export type TermConceptsPage = Static<typeof terms.ConceptsPage>;
export type TermConceptBody = Static<typeof terms.ConceptBody>;
export type TermsQuery = Static<typeof terms.TermsQuery>;
export type TermsImported = Static<typeof terms.TermsImported>;
export type TermCandidates = Static<typeof terms.CandidatesAnswer>;
