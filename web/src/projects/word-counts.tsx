// Words by status on the project page: a row per document and the project's total, in words as the analysis
// counts them (GET /v2/projects/status, counted on the server), beside the documents' segment counts.
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.ts';
import { projectStatusKey } from '../api/keys/projects.ts';
import type { SegmentStatus, WordsByStatus } from '../api/types.ts';
import { STATUS_NAMES } from '../ui/format.ts';

const STATUSES = Object.keys(STATUS_NAMES) as SegmentStatus[];

function Cells({ words }: { words: WordsByStatus }) {
  return (
    <>
      {STATUSES.map((s) => (
        <td key={s} className="num">
          {words[s].toLocaleString()}
        </td>
      ))}
      <td className="num strong">{words.total.toLocaleString()}</td>
    </>
  );
}

/** `version` changes whenever the project's documents do, so that the counts follow confirmations. */
export function WordCounts({ projectId, version }: { projectId: number; version: string }) {
  const status = useQuery({
    queryKey: [...projectStatusKey(projectId), version],
    queryFn: () => api.projectStatus(projectId),
    placeholderData: (previous) => previous,
  });
  if (!status.data || status.data.documents.length === 0) return null;
  return (
    <section className="words-by-status" aria-labelledby="words-by-status">
      <h2 id="words-by-status">Words by status</h2>
      <table className="table compact" aria-labelledby="words-by-status">
        <thead>
          <tr>
            <th scope="col">Document</th>
            {STATUSES.map((s) => (
              <th key={s} scope="col" className="num">
                {STATUS_NAMES[s]}
              </th>
            ))}
            <th scope="col" className="num">
              Words
            </th>
          </tr>
        </thead>
        <tbody>
          {status.data.documents.map((d) => (
            <tr key={d.id}>
              <th scope="row">{d.name}</th>
              <Cells words={d.words} />
            </tr>
          ))}
          <tr className="strong">
            <th scope="row">All documents</th>
            <Cells words={status.data.words} />
          </tr>
        </tbody>
      </table>
    </section>
  );
}
