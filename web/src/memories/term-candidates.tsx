// The Terms tab's suggested terms: phrases the memory translates one way in most of its sentences that are
// not terms yet (GET /v2/memories/terms/candidates), for a project manager to accept into the termbase with
// one click. The memory's lexicon is learned in the background on the first request: the list says so and
// asks again until it is ready.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { invalidateTerms, termCandidatesKey } from '../api/keys/terms.ts';
import type { TermCandidates as Candidates, Memory } from '../api/types.ts';

type Candidate = Candidates['candidates'][number];

export function TermCandidates({ memory }: { memory: Memory }) {
  const queryClient = useQueryClient();
  const [asked, setAsked] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const candidates = useQuery({
    queryKey: termCandidatesKey(memory.id),
    queryFn: () => api.termCandidates(memory.id),
    enabled: asked,
    // While the memory's lexicon is learned, ask again every second.
    refetchInterval: (query) => (query.state.data?.state === 'learning' ? 1000 : false),
  });
  const accept = useMutation({
    mutationFn: (c: Candidate) =>
      api.createTermConcept(memory.id, {
        terms: [
          { lang: memory.srclang, text: c.source },
          { lang: memory.trglang, text: c.target },
        ],
      }),
    onSuccess: (_concept, c) => {
      invalidateTerms(queryClient, memory.id);
      setNote(`Added “${c.source}” → “${c.target}” to the termbase.`);
    },
    onError: (err) => setNote(errorText(err)),
  });
  const data = candidates.data;
  return (
    <section className="subsection" aria-labelledby="term-candidates-title">
      <h3 id="term-candidates-title">Suggested terms</h3>
      <p className="hint">
        Phrases this memory translates the same way in most of its sentences, not in the termbase yet.
      </p>
      {!asked && (
        <button type="button" className="button small" onClick={() => setAsked(true)}>
          Suggest terms from the memory
        </button>
      )}
      <p role="status" className="hint">
        {data?.state === 'learning'
          ? 'Learning the memory’s words… this takes a few seconds for a large memory.'
          : (note ?? '')}
      </p>
      {candidates.error && (
        <p className="form-error" role="alert">
          {errorText(candidates.error)}
        </p>
      )}
      {data?.state === 'empty' && <p className="muted">The memory holds no segments to learn from.</p>}
      {data?.state === 'ready' && data.candidates.length === 0 && (
        <p className="muted">
          No suggestions: every phrase the memory translates consistently is a term already.
        </p>
      )}
      {data?.state === 'ready' && data.candidates.length > 0 && (
        <table className="table compact" aria-label="Suggested terms">
          <thead>
            <tr>
              <th scope="col">Source ({memory.srclang})</th>
              <th scope="col">Target ({memory.trglang})</th>
              <th scope="col">Translated so</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.candidates.map((c) => (
              <tr key={`${c.source}\u0000${c.target}`}>
                <td>{c.source}</td>
                <td>{c.target}</td>
                <td className="muted small">
                  in {c.frequency.toLocaleString()} sentences ({Math.round(c.share * 100)} %)
                </td>
                <td className="row-actions">
                  <button
                    type="button"
                    className="button small"
                    aria-label={`Add ${c.source} → ${c.target} to the termbase`}
                    disabled={accept.isPending}
                    onClick={() => accept.mutate(c)}
                  >
                    Add
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
