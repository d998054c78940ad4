// Export XLIFF and Export original: disabled with the reason while the document is busy; a 409 from the server
// is waited out for as long as its Retry-After says, then tried again.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { ApiError, api } from '../api/client.ts';
import { documentKey } from '../api/keys/documents.ts';
import { projectKey } from '../api/keys/projects.ts';
import type { TesseraDocument } from '../api/types.ts';
import { exportBlockedBecause } from './document-state.ts';

type ExportState =
  | { kind: 'idle' }
  | { kind: 'running' }
  | { kind: 'waiting'; seconds: number }
  | { kind: 'failed'; message: string };

/** A blocked export's segments, as the server names them (422 EXPORT_BLOCKED). */
interface BlockedSegment {
  position: number;
  problem: string;
}

/**
 * What to tell a translator of a failed export. A refused one names the segments by the numbers the editor
 * shows and says what to do, without the request's vocabulary of the server's message.
 */
function failureText(err: unknown, doc: TesseraDocument): string {
  if (!(err instanceof ApiError)) return err instanceof Error ? err.message : String(err);
  const segments = err.body?.segments as BlockedSegment[] | undefined;
  if (err.code !== 'EXPORT_BLOCKED' || !segments?.length) return err.message;
  const numbers = segments.map((s) => s.position + 1);
  const shown =
    numbers.length > 5
      ? `${numbers.slice(0, 5).join(', ')} and ${numbers.length - 5} more`
      : numbers.join(', ');
  const one = numbers.length === 1;
  // The formats that refuse (PO writes such a message fuzzy instead): JSON, YAML, Android's strings.xml.
  const formatName = doc.format === 'android' ? 'Android strings.xml' : doc.format.toUpperCase();
  return (
    `Not exported: the placeholders of confirmed segment${one ? '' : 's'} ${shown} would not run ` +
    `(${segments[0].problem}${one ? '' : '; …'}), and ${formatName} has no mark for a draft. ` +
    `Correct ${one ? 'it' : 'them'} (the QA list names ${one ? 'it' : 'them'}) or export XLIFF.`
  );
}

function ExportButton({ doc, xliff }: { doc: TesseraDocument; xliff: boolean }) {
  const [state, setState] = useState<ExportState>({ kind: 'idle' });
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const noteId = useId();
  const blocked = exportBlockedBecause(doc);
  const label = xliff ? 'Export XLIFF' : 'Export original';

  async function run() {
    setState({ kind: 'running' });
    try {
      await api.exportDocument(doc.id, xliff, xliff ? `${doc.name}.xlf` : doc.name);
      setState({ kind: 'idle' });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'DOCUMENT_BUSY') {
        const seconds = Math.max(1, err.retryAfter ?? 5);
        setState({ kind: 'waiting', seconds });
        timer.current = setTimeout(run, seconds * 1000);
      } else setState({ kind: 'failed', message: failureText(err, doc) });
    } finally {
      // The export's mark on the document is released by now. A read of the document made while it was set
      // shows it "Exporting…" (and this button disabled, its note hidden) until read again; the live stream
      // tells of an export only if its poll saw it running, which a quick one can slip between.
      void queryClient.invalidateQueries({ queryKey: documentKey(doc.id) });
      void queryClient.invalidateQueries({ queryKey: projectKey(doc.project_id) });
    }
  }

  const note =
    blocked ??
    (state.kind === 'waiting'
      ? `The document is busy: trying again in ${state.seconds} s`
      : state.kind === 'failed'
        ? state.message
        : null);
  return (
    <span className="export-button">
      <button
        type="button"
        className={
          state.kind === 'running' || state.kind === 'waiting' ? 'button small working' : 'button small'
        }
        disabled={blocked !== null || state.kind === 'running' || state.kind === 'waiting'}
        title={
          note ??
          (xliff ? 'Download as XLIFF 1.2, for another CAT tool' : `Download as ${doc.format}, translated`)
        }
        aria-describedby={note ? noteId : undefined}
        onClick={run}
      >
        {label}
      </button>
      {note && (
        <span id={noteId} className={blocked ? 'visually-hidden' : 'export-note'} role="status">
          {note}
        </span>
      )}
    </span>
  );
}

export function ExportButtons({ doc }: { doc: TesseraDocument }) {
  return (
    <>
      <ExportButton doc={doc} xliff />
      <ExportButton doc={doc} xliff={false} />
    </>
  );
}
