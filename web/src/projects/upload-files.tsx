// Uploads of several files at once into a project: each file's bytes sent (upload progress), then its parse on
// the server until the document is ready or its import failed (with the line and column the server names).
import { useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { projectKey } from '../api/keys/projects.ts';
import type { TesseraDocument } from '../api/types.ts';
import { formatBytes, plural } from '../ui/format.ts';

interface Upload {
  key: number;
  name: string;
  size: number;
  sent: number;
  /** Set once the server has the whole file: the document whose import then runs. */
  documentId: number | null;
  error: string | null;
}

// The formats the server's filters read (docs/API.md, Documents: "Formats"); the picker offers them, the server has the last word.
const ACCEPT = '.txt,.xlf,.xliff,.po,.pot,.json,.html,.htm,.md,.docx,.xml,.yml,.yaml';

let nextKey = 1;

export function useUploads(projectId: number) {
  const queryClient = useQueryClient();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const update = (key: number, change: Partial<Upload>) =>
    setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));

  function start(files: FileList | File[]) {
    const added = [...files].map((file) => ({
      file,
      upload: { key: nextKey++, name: file.name, size: file.size, sent: 0, documentId: null, error: null },
    }));
    setUploads((list) => [...list, ...added.map((a) => a.upload)]);
    // In parallel: the server streams each upload to its store, and the browser keeps a few connections open.
    for (const { file, upload } of added) {
      api
        .uploadDocument(projectId, file, (p) => update(upload.key, { sent: p.loaded }))
        .then((doc: TesseraDocument) => {
          update(upload.key, { sent: upload.size, documentId: doc.id });
          queryClient.invalidateQueries({ queryKey: projectKey(projectId) });
        })
        .catch((err) => update(upload.key, { error: errorText(err) }));
    }
  }

  const dismiss = (key: number) => setUploads((list) => list.filter((u) => u.key !== key));
  return { uploads, start, dismiss };
}

export function UploadList({
  uploads,
  documents,
  onDismiss,
}: {
  uploads: Upload[];
  documents: TesseraDocument[];
  onDismiss: (key: number) => void;
}) {
  if (uploads.length === 0) return null;
  return (
    <ul className="uploads" aria-label="Uploads">
      {uploads.map((u) => {
        const doc = documents.find((d) => d.id === u.documentId);
        const parsing = u.documentId !== null && (!doc || doc.import_in_progress);
        const failed =
          u.error ??
          (doc && !doc.import_in_progress && !doc.import_succeeded ? doc.import_error_message : null);
        const done = doc && !doc.import_in_progress && doc.import_succeeded;
        const percent = u.size === 0 ? 100 : Math.round((100 * u.sent) / u.size);
        let state: string;
        if (failed) state = `Failed: ${failed}`;
        else if (done) state = `Ready: ${plural(doc.num_segments, 'segment')}`;
        else if (parsing) state = 'Parsing…';
        else state = `Uploading ${formatBytes(u.sent)} of ${formatBytes(u.size)}`;
        return (
          <li key={u.key} className={failed ? 'upload failed' : done ? 'upload done' : 'upload'}>
            <span className="upload-name">{u.name}</span>
            <div
              className={parsing ? 'progress-track indeterminate' : 'progress-track'}
              role="progressbar"
              aria-label={`${u.name}: upload`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={parsing ? undefined : percent}
            >
              <div className="progress-fill" style={{ width: `${done || parsing ? 100 : percent}%` }} />
            </div>
            <span className="upload-state" role={failed ? 'alert' : 'status'}>
              {state}
            </span>
            {(done || failed) && (
              <button type="button" className="button quiet small" onClick={() => onDismiss(u.key)}>
                Dismiss
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export function UploadButton({ onFiles }: { onFiles: (files: FileList) => void }) {
  return (
    <label className="button primary file-button">
      Upload files
      <input
        type="file"
        multiple
        accept={ACCEPT}
        className="visually-hidden"
        onChange={(e) => {
          if (e.currentTarget.files?.length) onFiles(e.currentTarget.files);
          e.currentTarget.value = '';
        }}
      />
    </label>
  );
}

/** Handlers that make an element a drop zone for files. */
export function dropZone(onFiles: (files: FileList) => void, setOver: (over: boolean) => void) {
  return {
    onDragOver: (e: DragEvent) => {
      if (!e.dataTransfer.types.includes('Files')) return;
      e.preventDefault();
      setOver(true);
    },
    onDragLeave: () => setOver(false),
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      setOver(false);
      if (e.dataTransfer.files.length) onFiles(e.dataTransfer.files);
    },
  };
}
