// The document's words in the editor's header: how many of its words are confirmed (reviewed ones included),
// of all, counted on the server as the analysis counts words (GET /v2/documents/words); the title breaks them
// down by status. Read again whenever the confirmed count changes.
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.ts';
import { documentWordsKey } from '../api/keys/documents.ts';
import type { SegmentStatus } from '../api/types.ts';
import { STATUS_NAMES } from '../ui/format.ts';

export function DocumentWords({ documentId, confirmed }: { documentId: number; confirmed: number }) {
  const words = useQuery({
    queryKey: documentWordsKey(documentId, confirmed),
    queryFn: () => api.documentWords(documentId),
    placeholderData: (previous) => previous,
  });
  if (!words.data) return null;
  const w = words.data.words;
  const breakdown = (Object.keys(STATUS_NAMES) as SegmentStatus[])
    .map((s) => `${STATUS_NAMES[s]}: ${w[s].toLocaleString()}`)
    .join(' · ');
  return (
    <span className="muted small document-words" title={`Words by status — ${breakdown}`}>
      {(w.confirmed + w.reviewed).toLocaleString()} / {w.total.toLocaleString()} words confirmed
    </span>
  );
}
