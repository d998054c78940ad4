// Concordance: the memory's entries holding a word or phrase, on either side, hits highlighted. Alt+K searches
// the selection (or the word at the cursor) of the target editor.
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { api } from '../../api/client.ts';
import { concordanceKey } from '../../api/keys/memories.ts';
import { tooltip } from '../../keyboard/shortcut-label.ts';
import { TaggedText } from '../tags/tagged-text.tsx';

export function ConcordancePanel({
  memoryId,
  request,
}: {
  memoryId: number | undefined;
  request: { text: string; at: number } | null;
}) {
  const [text, setText] = useState('');
  const [side, setSide] = useState<'source' | 'target'>('source');
  const [searched, setSearched] = useState('');
  useEffect(() => {
    if (request) {
      setText(request.text);
      setSearched(request.text);
    }
  }, [request]);
  const hits = useQuery({
    queryKey: concordanceKey(memoryId, side, searched),
    queryFn: () => api.concordance(memoryId!, searched, side),
    enabled: memoryId !== undefined && searched.trim() !== '',
    staleTime: 30_000,
  });

  return (
    <section className="panel concordance" aria-label="Concordance">
      <h2 className="panel-title">Concordance</h2>
      <form
        className="concordance-form"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          setSearched(text.trim());
        }}
      >
        <input
          type="search"
          aria-label="Search the memory"
          placeholder="Search the memory…"
          title={tooltip('concordance')}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
        />
        <select
          aria-label="Side"
          value={side}
          onChange={(e) => setSide(e.currentTarget.value as 'source' | 'target')}
        >
          <option value="source">in sources</option>
          <option value="target">in targets</option>
        </select>
      </form>
      {hits.error && <p className="form-error">{hits.error.message}</p>}
      {hits.data &&
        (hits.data.length === 0 ? (
          <p className="muted">Nothing in the memory holds “{searched}”.</p>
        ) : (
          <ul className="hit-list">
            {hits.data.map((h) => (
              <li key={h.metadata.segment_id} className="hit">
                <div>
                  <TaggedText text={h.source} marks={h.side === 'source' ? h.offsets : []} />
                </div>
                <div className="hit-target">
                  <TaggedText text={h.target} marks={h.side === 'target' ? h.offsets : []} />
                </div>
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
