// Words confirmed and reviewed per person on the project page: the project's total per user and each
// document's, from who made each segment's current confirmation and review (GET /v2/review/progress,
// docs/EDITOR.md §10b).
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.ts';
import { reviewProgressKey } from '../api/keys/quality.ts';
import type { ReviewProgress } from '../api/types.ts';

type UserWords = ReviewProgress['users'][number];

const nameOf = (u: UserWords) => u.user ?? 'Unknown (before history)';

function Rows({ users, label }: { users: UserWords[]; label: string }) {
  return (
    <>
      {users.map((u, i) => (
        <tr key={`${label}:${u.user}`}>
          {i === 0 && (
            <th scope="rowgroup" rowSpan={users.length}>
              {label}
            </th>
          )}
          <th scope="row">{nameOf(u)}</th>
          <td className="num">{u.words_confirmed.toLocaleString()}</td>
          <td className="num">{u.words_reviewed.toLocaleString()}</td>
        </tr>
      ))}
    </>
  );
}

/** `version` changes whenever the project's documents do, so that the counts follow confirmations. */
export function WordsPerPerson({ projectId, version }: { projectId: number; version: string }) {
  const progress = useQuery({
    queryKey: [...reviewProgressKey(projectId), version],
    queryFn: () => api.reviewProgress(projectId),
    placeholderData: (previous) => previous,
  });
  const p = progress.data;
  if (!p || p.users.length === 0) return null;
  return (
    <section className="words-per-person" aria-labelledby="words-per-person">
      <h2 id="words-per-person">Words per person</h2>
      <table className="table compact" aria-labelledby="words-per-person">
        <thead>
          <tr>
            <th scope="col">Document</th>
            <th scope="col">Person</th>
            <th scope="col" className="num">
              Words confirmed
            </th>
            <th scope="col" className="num">
              Words reviewed
            </th>
          </tr>
        </thead>
        <tbody>
          {p.documents
            .filter((d) => d.users.length > 0)
            .map((d) => (
              <Rows key={d.id} users={d.users} label={d.name} />
            ))}
        </tbody>
        <tbody className="strong">
          <Rows users={p.users} label="All documents" />
        </tbody>
      </table>
      <p className="muted small">
        Who made each segment’s current confirmation and review, from its history; reviewed words are among
        the confirmed ones.
      </p>
    </section>
  );
}
