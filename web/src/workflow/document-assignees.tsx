// The project page's workflow cell of a document: its stage, and who is assigned to each stage of the project's
// workflow — a select per stage for managers (PUT /v2/documents/share), the names alone for everyone else.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { projectKey } from '../api/keys/projects.ts';
import { usersKey } from '../api/keys/users.ts';
import type { TesseraDocument, User } from '../api/types.ts';
import { ASSIGNEE_LABELS, SHARE_FLAGS, stageLabel } from './stages.ts';

type WorkStage = keyof typeof ASSIGNEE_LABELS;

const nameOf = (u: Pick<User, 'email' | 'username'>) => u.email ?? u.username;

/**
 * The document's stage beside its state badge: worded as a stage ("In review", "Workflow done") so that it does
 * not read as a second state ("Done Done", "Ready Translation").
 */
export function StageBadge({ doc }: { doc: TesseraDocument }) {
  return (
    <span
      className={doc.stage === 'done' ? 'state-badge done' : 'state-badge ready'}
      title="Where the document is in its workflow"
    >
      {doc.stage === 'done' ? 'Workflow done' : `In ${stageLabel(doc.stage).toLowerCase()}`}
    </span>
  );
}

export function DocumentAssignees({
  doc,
  stages,
  canAssign,
}: {
  doc: TesseraDocument;
  /** The stages of the project's workflow template. */
  stages: readonly WorkStage[];
  canAssign: boolean;
}) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const users = useQuery({ queryKey: usersKey, queryFn: api.users, enabled: canAssign, staleTime: 60_000 });
  const share = useMutation({
    mutationFn: async ({ stage, userId }: { stage: WorkStage; userId: number | null }) => {
      const current = doc.assignees?.find((a) => a.stage === stage);
      const flag = SHARE_FLAGS[stage];
      if (userId === null) {
        if (current) await api.shareDocument({ id: doc.id, email: nameOf(current), [flag]: false });
        return;
      }
      const user = users.data?.find((u) => u.id === userId);
      if (user) await api.shareDocument({ id: doc.id, email: nameOf(user), [flag]: true });
    },
    onSuccess: () => {
      setError(null);
      queryClient.invalidateQueries({ queryKey: projectKey(doc.project_id) });
    },
    onError: (err) => setError(errorText(err)),
  });
  return (
    <div className="assignees">
      {stages.map((stage) => {
        const current = doc.assignees?.find((a) => a.stage === stage);
        const label = `${ASSIGNEE_LABELS[stage]} of ${doc.name}`;
        return (
          <div key={stage} className="assignee">
            <span className="assignee-stage">{ASSIGNEE_LABELS[stage]}</span>
            {canAssign ? (
              <select
                className="inline-select"
                aria-label={label}
                value={current?.user_id ?? ''}
                disabled={share.isPending || !users.data}
                onChange={(e) =>
                  share.mutate({
                    stage,
                    userId: e.currentTarget.value === '' ? null : Number(e.currentTarget.value),
                  })
                }
              >
                <option value="">Unassigned</option>
                {users.data
                  ?.filter((u) => !u.disabled)
                  .map((u) => (
                    <option key={u.id} value={u.id}>
                      {u.username}
                    </option>
                  ))}
              </select>
            ) : (
              <span>
                <span className="visually-hidden">{label}: </span>
                {current?.username ?? <span className="muted">Unassigned</span>}
              </span>
            )}
          </div>
        );
      })}
      {error && (
        <span className="form-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
