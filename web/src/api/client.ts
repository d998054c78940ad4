// The one module that talks to the server: every request of the web application goes through here, same-origin,
// authenticated by the HttpOnly session cookie (nothing of a credential is ever held by scripts).
import type {
  AnalysisWeights,
  Annotation,
  ApiKeyRow,
  AssignDocumentBody,
  BrowseEntriesQuery,
  Caller,
  ChangePasswordBody,
  Comment,
  CommentBody,
  ConcordanceHit,
  ConcordanceSide,
  CreateAnnotationBody,
  CreatedKey,
  CreateJobRequest,
  CreateKeyBody,
  CreateMemoryBody,
  CreateMtEngineBody,
  CreateProjectBody,
  CreateUserBody,
  Deleted,
  DocumentComments,
  DocumentQa,
  DocumentSegment,
  DocumentTerms,
  DocumentWords,
  EntryDeleted,
  ErrorBody,
  ImportStarted,
  Job,
  JobAction,
  JobLeverage,
  JoinBody,
  Languages,
  LockSegmentsBody,
  MarkReadAnswer,
  Memory,
  MemoryEntriesPage,
  MemoryEntryHistory,
  MemoryEntrySegment,
  MemoryMatch,
  MtEngine,
  MtEngines,
  MtEngineTest,
  MtSuggestion,
  NotificationsPage,
  PasswordChanged,
  PretranslateAccept,
  PretranslateAnswer,
  Project,
  ProjectStatus,
  QualityReport,
  QualityScore,
  QualitySettings,
  RejectAnswer,
  RenameDocumentBody,
  RenameMemoryBody,
  RepairList,
  ReplaceRequest,
  ReplaceResult,
  ReshapeAnswer,
  RestoreBody,
  ReviewBaselines,
  ReviewProgress,
  SegmentHistory,
  SegmentStatus,
  SegmentsPage,
  SegmentsPageQuery,
  SignedOut,
  SignInBody,
  SourceFile,
  SplitBody,
  Task,
  TermCandidates,
  TermConcept,
  TermConceptBody,
  TermConceptsPage,
  TermsImported,
  TermsQuery,
  TesseraDocument,
  UndoReplaceAnswer,
  UndoReplaceBody,
  UpdateAnnotationBody,
  UpdateEntryBody,
  UpdateMtEngineBody,
  UpdateProjectBody,
  UpdateSegmentBody,
  UpdateUserBody,
  UpdateWeightsBody,
  User,
  WorkflowTemplate,
} from './types.ts';

/** A refused request, with the server's stable code and message (docs/API.md "Errors"). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds, from Retry-After (409 DOCUMENT_BUSY, 429). */
    readonly retryAfter: number | null = null,
    /** The whole JSON body (409 SEGMENT_CONFLICT carries `current`). */
    readonly body: Record<string, unknown> | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** What to tell a person of a failed request: the server's message, or what went wrong on the way. */
export const errorText = (err: unknown) => (err instanceof ApiError ? err.message : String(err));

/** Called on any 401: the session ended (expired, signed out elsewhere); the app shows the sign-in page. */
let onSignedOut: () => void = () => {};
export function whenSignedOut(listener: () => void): void {
  onSignedOut = listener;
}

async function errorOf(res: Response): Promise<ApiError> {
  const retry = res.headers.get('Retry-After');
  const retryAfter = retry === null ? null : Number(retry);
  const text = await res.text();
  try {
    const body = JSON.parse(text) as Partial<ErrorBody>;
    return new ApiError(res.status, body.code ?? 'HTTP_ERROR', body.message ?? text, retryAfter, body);
  } catch {
    return new ApiError(res.status, res.status === 401 ? 'UNAUTHORIZED' : 'HTTP_ERROR', text, retryAfter);
  }
}

/**
 * Sent with every request: the server then answers a 401 without a Basic challenge, which would make the
 * browser open its own password prompt over the page (src/http/web-app.ts).
 */
const CLIENT_HEADER = { 'x-requested-with': 'tessera-web' };

async function send(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers:
      body === undefined
        ? { accept: 'application/json', ...CLIENT_HEADER }
        : { 'content-type': 'application/json', ...CLIENT_HEADER },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  if (res.ok) return res;
  const error = await errorOf(res);
  // The sign-in endpoint answers 401 for wrong credentials: that is the form's to show, not a lost session.
  if (res.status === 401 && path !== '/v2/session') onSignedOut();
  throw error;
}

async function json<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  return (await send(method, path, body, signal)).json() as Promise<T>;
}

function query(params: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') search.set(k, String(v));
  return search.toString();
}

/** A file as the request's raw body (Lilt's uploads), answering the server's JSON; failures as send's. */
async function sendFile<T>(
  method: string,
  path: string,
  file: File,
  headers: Record<string, string>,
): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { ...headers, ...CLIENT_HEADER },
    body: file,
  });
  if (!res.ok) {
    const error = await errorOf(res);
    if (res.status === 401) onSignedOut();
    throw error;
  }
  return (await res.json()) as T;
}

/** Parameters as JSON in a header (Lilt's LILT-API): anything outside ASCII escaped, which a header cannot carry. */
const headerJson = (params: Record<string, unknown>) =>
  JSON.stringify(params).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

export interface UploadProgress {
  loaded: number;
  total: number;
}

/** The file named in a Content-Disposition header, or the fallback. */
function attachmentName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1]);
  return /filename="?([^";]+)"?/i.exec(header)?.[1] ?? fallback;
}

export const api = {
  signIn: (credentials: SignInBody) => json<Caller>('POST', '/v2/session', credentials),
  signOut: () => json<SignedOut>('DELETE', '/v2/session'),
  me: () => json<Caller>('GET', '/v2/me'),
  languages: () => json<Languages>('GET', '/v2/languages'),

  memories: () => json<Memory[]>('GET', '/v2/memories'),
  memory: async (id: number) => {
    const [memory] = await json<Memory[]>('GET', `/v2/memories?${query({ id })}`);
    if (!memory) throw new ApiError(404, 'NOT_FOUND', `Memory ${id} not found`);
    return memory;
  },
  updateMemory: (id: number, body: Omit<RenameMemoryBody, 'id'>) =>
    json<Memory>('PUT', '/v2/memories', { id, ...body }),
  memoryEntryHistory: (id: number, segmentId: number) =>
    json<MemoryEntryHistory>('GET', `/v2/memories/entries/history?${query({ id, segment_id: segmentId })}`),
  deleteMemory: (id: number) => json<Deleted>('DELETE', `/v2/memories?${query({ id })}`),
  memoryEntries: (params: BrowseEntriesQuery) =>
    json<MemoryEntriesPage>('GET', `/v2/memories/entries?${query(params)}`),
  updateMemoryEntry: (body: UpdateEntryBody) => json<MemoryEntrySegment>('PUT', '/v2/memories/segment', body),
  deleteMemoryEntry: (id: number, segmentId: number) =>
    json<EntryDeleted>('DELETE', `/v2/memories/segment?${query({ id, segment_id: segmentId })}`),
  importMemory: (memoryId: number, file: File) =>
    sendFile<ImportStarted>('POST', '/v2/memories/import', file, {
      'content-type': 'application/octet-stream',
      'lilt-api': headerJson({ memory_id: memoryId, name: file.name }),
    }),
  task: (id: number) => json<Task>('GET', `/v2/tasks?${query({ id })}`),
  termConcepts: (params: TermsQuery) => json<TermConceptsPage>('GET', `/v2/memories/terms?${query(params)}`),
  termCandidates: (memoryId: number) =>
    json<TermCandidates>('GET', `/v2/memories/terms/candidates?${query({ id: memoryId })}`),
  createTermConcept: (memoryId: number, body: TermConceptBody) =>
    json<TermConcept>('POST', `/v2/memories/terms?${query({ id: memoryId })}`, body),
  updateTermConcept: (memoryId: number, conceptId: number, body: TermConceptBody) =>
    json<TermConcept>('PUT', `/v2/memories/terms?${query({ id: memoryId, concept_id: conceptId })}`, body),
  deleteTermConcept: (memoryId: number, conceptId: number) =>
    json<Deleted>('DELETE', `/v2/memories/terms?${query({ id: memoryId, concept_id: conceptId })}`),
  importTerms: (memoryId: number, file: File) =>
    sendFile<TermsImported>('POST', '/v2/memories/terms/import', file, {
      'content-type': 'application/octet-stream',
      'lilt-api': headerJson({ memory_id: memoryId, name: file.name }),
    }),
  async exportTerms(id: number, format: 'tbx' | 'csv', fallbackName: string): Promise<string> {
    const res = await send('GET', `/v2/memories/terms/export?${query({ id, format })}`);
    return download(res, fallbackName);
  },
  async exportMemory(id: number, fallbackName: string): Promise<string> {
    const res = await send('GET', `/v2/memories/export?${query({ id })}`);
    return download(res, fallbackName);
  },

  users: () => json<User[]>('GET', '/v2/users'),
  createUser: (body: CreateUserBody) => json<User>('POST', '/v2/users', body),
  updateUser: (body: UpdateUserBody) => json<User>('PUT', '/v2/users', body),
  changePassword: (body: ChangePasswordBody) => json<PasswordChanged>('PUT', '/v2/me/password', body),
  keys: () => json<ApiKeyRow[]>('GET', '/v2/keys'),
  createKey: (body: CreateKeyBody) => json<CreatedKey>('POST', '/v2/keys', body),
  revokeKey: (id: number) => json<Deleted>('DELETE', `/v2/keys?${query({ id })}`),
  mtEngines: () => json<MtEngines>('GET', '/v2/translate/engines'),
  createMtEngine: (body: CreateMtEngineBody) => json<MtEngine>('POST', '/v2/translate/engines', body),
  updateMtEngine: (id: number, body: UpdateMtEngineBody) =>
    json<MtEngine>('PUT', `/v2/translate/engines/${id}`, body),
  deleteMtEngine: (id: number) => json<Deleted>('DELETE', `/v2/translate/engines/${id}`),
  orderMtEngines: (ids: number[]) => json<MtEngines>('PUT', '/v2/translate/engines/order', { ids }),
  testMtEngine: (id: number) => json<MtEngineTest>('POST', `/v2/translate/engines/${id}/test`),
  setMtLimit: (monthlyLimit: number | null) =>
    json<MtEngines['limit']>('PUT', '/v2/translate/limit', { monthly_limit: monthlyLimit }),

  jobs: () => json<Job[]>('GET', '/v2/jobs'),
  createJob: (body: CreateJobRequest) => json<Job>('POST', '/v2/jobs', body),
  /** Uploads a source file for jobs (Lilt's Files): its language detected, its id for POST /v2/jobs. */
  uploadSourceFile: (file: File) =>
    sendFile<SourceFile>('POST', `/v2/files?${query({ name: file.name, langId: true })}`, file, {
      'content-type': 'application/octet-stream',
    }),
  jobStats: (id: number) => json<JobLeverage>('POST', `/v2/jobs/${id}/stats`),
  jobAction: (id: number, action: JobAction) => json<Job>('POST', `/v2/jobs/${id}/${action}`),
  /** The analysis as CSV (a row per file), run now on the server, handed to the browser as a file. */
  async downloadJobAnalysis(id: number, fallbackName: string): Promise<string> {
    return download(await send('GET', `/v2/jobs/${id}/stats.csv`), fallbackName);
  },
  analysisWeights: () => json<AnalysisWeights>('GET', '/v2/analysis/weights'),
  updateAnalysisWeights: (body: UpdateWeightsBody) =>
    json<AnalysisWeights>('PUT', '/v2/analysis/weights', body),
  exportJob: (id: number) => json<Job>('GET', `/v2/jobs/${id}/export?${query({ type: 'files' })}`),
  async downloadJob(id: number, fallbackName: string): Promise<string> {
    return download(await send('GET', `/v2/jobs/${id}/download`), fallbackName);
  },

  // Review and quality (extensions, docs/API.md "Quality" and "Review").
  annotations: (documentId: number, segmentId?: number) =>
    json<Annotation[]>(
      'GET',
      `/v2/quality/annotations?${query({ document_id: documentId, segment_id: segmentId })}`,
    ),
  createAnnotation: (body: CreateAnnotationBody) => json<Annotation>('POST', '/v2/quality/annotations', body),
  updateAnnotation: (body: UpdateAnnotationBody) => json<Annotation>('PUT', '/v2/quality/annotations', body),
  deleteAnnotation: (id: number) =>
    json<{ id: number; deleted: boolean }>('DELETE', `/v2/quality/annotations?${query({ id })}`),
  qualityScore: (documentId: number) =>
    json<QualityScore>('GET', `/v2/quality/score?${query({ document_id: documentId })}`),
  qualityReport: (documentId: number) =>
    json<QualityReport>('GET', `/v2/quality/report?${query({ document_id: documentId })}`),
  /** The quality report as CSV, handed to the browser as a file. */
  async downloadQualityReport(documentId: number, fallbackName: string): Promise<string> {
    return download(
      await send('GET', `/v2/quality/report.csv?${query({ document_id: documentId })}`),
      fallbackName,
    );
  },
  qualitySettings: (projectId: number) =>
    json<QualitySettings>('GET', `/v2/quality/settings?${query({ project_id: projectId })}`),
  updateQualitySettings: (projectId: number, threshold: number) =>
    json<QualitySettings>('PUT', '/v2/quality/settings', { project_id: projectId, threshold }),
  reviewBaselines: (documentId: number) =>
    json<ReviewBaselines>('GET', `/v2/review/baselines?${query({ document_id: documentId })}`),
  reviewProgress: (projectId: number) =>
    json<ReviewProgress>('GET', `/v2/review/progress?${query({ project_id: projectId })}`),

  /** A document's words by segment status, counted on the server (extension). */
  documentWords: (id: number) => json<DocumentWords>('GET', `/v2/documents/words?${query({ id })}`),
  documentQa: (id: number) => json<DocumentQa>('GET', `/v2/documents/qa?${query({ id })}`),
  /** The project memory's terms in the document's language pair (extension). */
  documentTerms: (id: number) => json<DocumentTerms>('GET', `/v2/documents/terms?${query({ id })}`),
  replace: (body: ReplaceRequest) => json<ReplaceResult>('POST', '/v2/documents/replace', body),
  undoReplace: (id: number, batchId: number) =>
    json<UndoReplaceAnswer>('POST', '/v2/documents/replace/undo', {
      id,
      batch_id: batchId,
    } satisfies UndoReplaceBody),
  comments: (documentId: number) =>
    json<DocumentComments>('GET', `/v2/comments?${query({ document_id: documentId })}`),
  /** Without segmentId, a comment on the whole document; with body.parent_id, a reply. */
  createComment: (documentId: number, segmentId: number | undefined, body: CommentBody) =>
    json<Comment>('POST', `/v2/comments?${query({ document_id: documentId, segment_id: segmentId })}`, body),
  updateComment: (commentId: number, body: CommentBody) =>
    json<Comment>('PUT', `/v2/comments?${query({ comment_id: commentId })}`, body),
  deleteComment: (commentId: number) =>
    json<{ id: number; deleted: boolean }>('DELETE', `/v2/comments?${query({ comment_id: commentId })}`),
  /** Sends a segment back to its translator, unconfirmed, with a comment saying why. */
  rejectSegment: (body: { id: number; text: string; expected_updated_at?: number }) =>
    json<RejectAnswer>('POST', '/v2/segments/reject', body),
  notifications: () => json<NotificationsPage>('GET', '/v2/notifications?limit=20'),
  /** Marks these notifications read, or all of the caller's. */
  markNotificationsRead: (ids?: number[]) =>
    json<MarkReadAnswer>('POST', '/v2/notifications/read', ids ? { ids } : {}),
  restoreVersion: (body: RestoreBody) => json<DocumentSegment>('POST', '/v2/segments/restore', body),
  joinSegments: (body: JoinBody) => json<ReshapeAnswer>('POST', '/v2/segments/join', body),
  splitSegment: (body: SplitBody) => json<ReshapeAnswer>('POST', '/v2/segments/split', body),
  segmentHistory: (id: number) => json<SegmentHistory>('GET', `/v2/segments/history?${query({ id })}`),
  createMemory: (body: CreateMemoryBody) => json<Memory>('POST', '/v2/memories', body),
  /** With the segment the source is of, the server can tell context (101 %) matches (docs/API.md). */
  matches: (memoryId: number, source: string, signal?: AbortSignal, segmentId?: number) =>
    json<MemoryMatch[]>(
      'GET',
      `/v2/memories/query?${query({ id: memoryId, query: source, n: 9, segment_id: segmentId })}`,
      undefined,
      signal,
    ),
  /** The machine translation of a source in the memory's pair (an extension of docs/API.md). */
  mtSuggestion: (memoryId: number, source: string, signal?: AbortSignal) =>
    json<MtSuggestion>(
      'GET',
      `/v2/translate/suggestion?${query({ memory_id: memoryId, source })}`,
      undefined,
      signal,
    ),
  mtRepairs: (memoryId: number, source: string, signal?: AbortSignal) =>
    json<RepairList>(
      'GET',
      `/v2/translate/repairs?${query({ memory_id: memoryId, source })}`,
      undefined,
      signal,
    ),
  concordance: (memoryId: number, text: string, side: ConcordanceSide) =>
    json<ConcordanceHit[]>(
      'GET',
      `/v2/memories/concordance?${query({ id: memoryId, query: text, side, n: 50 })}`,
    ),

  projects: () => json<Project[]>('GET', '/v2/projects'),
  project: async (id: number) => {
    const [project] = await json<Project[]>('GET', `/v2/projects?${query({ id })}`);
    if (!project) throw new ApiError(404, 'NOT_FOUND', `Project ${id} not found`);
    return project;
  },
  createProject: (body: CreateProjectBody) => json<Project>('POST', '/v2/projects', body),
  updateProject: (body: UpdateProjectBody) => json<Project>('PUT', '/v2/projects', body),
  /** Lilt's project status: words confirmed and reviewed, and words by status per document (extension). */
  projectStatus: (id: number) => json<ProjectStatus>('GET', `/v2/projects/status?${query({ id })}`),
  deleteProject: (id: number) => json<Deleted>('DELETE', `/v2/projects?${query({ id })}`),
  /** The project's segmentation rules in force, as an SRX 2.0 file handed to the browser. */
  async downloadSegmentationRules(id: number): Promise<string> {
    return download(await send('GET', `/v2/projects/segmentation?${query({ id })}`), `project-${id}.srx`);
  },
  /** An SRX 2.0 file becomes the project's own segmentation rules. */
  uploadSegmentationRules: (id: number, file: File) =>
    sendFile<Project>('PUT', `/v2/projects/segmentation?${query({ id })}`, file, {
      'content-type': 'application/xml',
    }),
  resetSegmentationRules: (id: number) =>
    json<Project>('DELETE', `/v2/projects/segmentation?${query({ id })}`),

  document: (id: number) => json<TesseraDocument>('GET', `/v2/documents?${query({ id })}`),
  renameDocument: (id: number, name: string) =>
    json<TesseraDocument>('PUT', '/v2/documents', { id, name } satisfies RenameDocumentBody),
  workflowTemplates: () => json<WorkflowTemplate[]>('GET', '/v2/workflows/templates'),
  shareDocument: (body: AssignDocumentBody) => json<{ id: number }>('PUT', '/v2/documents/share', body),
  /** The translation done (checked on the server), or (isDone false) the document sent back to translation. */
  translationDone: (id: number, isDone: boolean) =>
    json<number[]>('POST', '/v2/documents/done/translation', { documentIds: [id], isDone }),
  reviewDone: (id: number, isDone: boolean) =>
    json<number[]>('POST', '/v2/documents/done/review', { documentIds: [id], isDone }),
  unlockDocument: (id: number) => json<number[]>('POST', '/v2/documents/done/unlock', { documentIds: [id] }),
  /** Locks (or unlocks) segments of a document: listed, those matching at least min_score, or all. */
  lockSegments: (body: LockSegmentsBody) =>
    json<{ document_id: number; locked: boolean; segment_ids: number[] }>('POST', '/v2/segments/lock', body),
  deleteDocument: (id: number) => json<Deleted>('DELETE', `/v2/documents?${query({ id })}`),
  /** `auto_accept_scope` is Tessera's extension (docs/API.md): "context" confirms only context matches. */
  pretranslate: (ids: number[], accept: PretranslateAccept) =>
    json<PretranslateAnswer>('POST', '/v2/documents/pretranslate', { id: ids, ...accept }),
  segments: (
    /** The query's fields, but the statuses as a list (the query joins them with commas). */
    params: Omit<SegmentsPageQuery, 'status'> & { status?: readonly SegmentStatus[] },
    signal?: AbortSignal,
  ) =>
    json<SegmentsPage>(
      'GET',
      `/v2/documents/segments?${query({
        id: params.id,
        offset: params.offset,
        limit: params.limit,
        status: params.status?.join(','),
        q: params.q,
        repeated: params.repeated,
        qa: params.qa,
        unresolved: params.unresolved,
      })}`,
      undefined,
      signal,
    ),
  saveSegment: (body: UpdateSegmentBody) => json<DocumentSegment>('PUT', '/v2/segments', body),

  /**
   * Uploads one file into a project as a raw body, reporting the bytes sent (XMLHttpRequest: fetch has no
   * upload progress). Answers the Document, whose import then runs as a job.
   */
  uploadDocument(
    projectId: number,
    file: File,
    onProgress: (p: UploadProgress) => void,
    signal?: AbortSignal,
  ): Promise<TesseraDocument> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', '/v2/documents/files');
      xhr.setRequestHeader('content-type', 'application/octet-stream');
      for (const [name, value] of Object.entries(CLIENT_HEADER)) xhr.setRequestHeader(name, value);
      xhr.setRequestHeader('LILT-API', headerJson({ name: file.name, project_id: projectId }));
      xhr.upload.onprogress = (e) =>
        onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : file.size });
      xhr.onload = () => {
        if (xhr.status >= 200 && xhr.status < 300) {
          resolve(JSON.parse(xhr.responseText) as TesseraDocument);
          return;
        }
        let code = 'HTTP_ERROR';
        let message = xhr.responseText || `Upload failed (${xhr.status})`;
        try {
          const body = JSON.parse(xhr.responseText) as ErrorBody;
          code = body.code;
          message = body.message;
        } catch {}
        if (xhr.status === 401) onSignedOut();
        reject(new ApiError(xhr.status, code, message));
      };
      xhr.onerror = () => reject(new ApiError(0, 'NETWORK', 'The server could not be reached'));
      xhr.onabort = () => reject(new ApiError(0, 'ABORTED', 'Upload cancelled'));
      signal?.addEventListener('abort', () => xhr.abort());
      xhr.send(file);
    });
  },

  /**
   * Downloads an export and hands it to the browser as a file. A busy document answers 409 with Retry-After,
   * thrown as an ApiError for the caller to wait on.
   */
  async exportDocument(id: number, asXliff: boolean, fallbackName: string): Promise<string> {
    const res = await send('GET', `/v2/documents/files?${query({ id, is_xliff: asXliff })}`);
    return download(res, fallbackName);
  },
};

/** Hands an answer's body to the browser as a file; answers the file's name. */
async function download(res: Response, fallbackName: string): Promise<string> {
  const name = attachmentName(res.headers.get('Content-Disposition'), fallbackName);
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken its copy once click() returns; a minute leaves room for a slow disk.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}
