// Comments (the side bar): the threads on the active segment — a first comment, its replies, resolved or not —
// and a box to comment, with @name to mention someone who can see the document; the threads on the whole
// document below. Others' comments arrive live (a `comment` event reads them again).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { api, errorText } from '../../api/client.ts';
import { commentsKey, invalidateComments } from '../../api/keys/comments.ts';
import { meKey } from '../../api/keys/users.ts';
import type { Caller, Comment } from '../../api/types.ts';
import { tooltip } from '../../keyboard/shortcut-label.ts';
import type { PanelProps } from '../panels/side-panel.ts';
import { mentionParts, type Thread, threadsOn } from './comment-threads.ts';

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function CommentsPanel({ context }: PanelProps) {
  const { documentId, segment } = context;
  const queryClient = useQueryClient();
  const me = queryClient.getQueryData<Caller>(meKey);
  const comments = useQuery({ queryKey: commentsKey(documentId), queryFn: () => api.comments(documentId) });
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const changed = () => {
    setError(null);
    invalidateComments(queryClient, documentId);
  };
  const write = useMutation({
    mutationFn: (input: { text: string; parentId?: number; segmentId?: number }) =>
      api.createComment(documentId, input.parentId ? undefined : input.segmentId, {
        text: input.text,
        parent_id: input.parentId,
      }),
    onSuccess: changed,
    onError: (err) => setError(errorText(err)),
  });
  const change = useMutation({
    mutationFn: async (input: { id: number; resolved?: boolean; remove?: boolean }) => {
      if (input.remove) await api.deleteComment(input.id);
      else await api.updateComment(input.id, { is_resolved: input.resolved });
    },
    onSuccess: changed,
    onError: (err) => setError(errorText(err)),
  });

  // The key (Alt+M) asks for the comment box.
  useEffect(() => {
    if (context.commentRequest > 0) box.current?.focus();
  }, [context.commentRequest]);

  const threads = segment ? threadsOn(comments.data, segment.id) : [];
  const documentThreads = threadsOn(comments.data, null);
  const open = threads.filter((t) => !t.first.is_resolved).length;
  const number = segment ? segment.position + 1 : undefined;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const text = String(new FormData(form).get('text') ?? '').trim();
    if (!text || !segment) return;
    write.mutate({ text, segmentId: segment.id }, { onSuccess: () => form.reset() });
  };

  const threadProps = {
    me,
    busy: write.isPending || change.isPending,
    onReply: (parentId: number, text: string, done: () => void) =>
      write.mutate({ text, parentId }, { onSuccess: done }),
    onResolve: (id: number, resolved: boolean) => change.mutate({ id, resolved }),
    onDelete: (id: number) => change.mutate({ id, remove: true }),
  };

  return (
    <section className="panel comments" aria-labelledby="comments-title">
      <h2 className="panel-title" id="comments-title">
        Comments
        {open > 0 && (
          <span className="panel-count" title="Unresolved threads on this segment">
            {open}
          </span>
        )}
      </h2>
      {!segment ? (
        <p className="muted">Select a segment.</p>
      ) : comments.isPending ? (
        <p className="muted">Reading the comments…</p>
      ) : comments.error ? (
        <p className="form-error">{comments.error.message}</p>
      ) : (
        <>
          {threads.length === 0 ? (
            <p className="muted">No comment on segment {number}.</p>
          ) : (
            <ul className="comment-threads" aria-label={`Comments on segment ${number}`}>
              {threads.map((thread) => (
                <ThreadView key={thread.first.id} thread={thread} {...threadProps} />
              ))}
            </ul>
          )}
          <form className="comment-form" onSubmit={submit}>
            <label className="visually-hidden" htmlFor="new-comment">
              Comment on segment {number}
            </label>
            <textarea
              id="new-comment"
              ref={box}
              name="text"
              rows={2}
              maxLength={5000}
              placeholder="Comment… (@name mentions someone)"
              title={tooltip('commentOnSegment')}
              onKeyDown={(e) => {
                // Ctrl+Enter sends, as it confirms in the target; Escape goes back to the target.
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                  e.preventDefault();
                  e.stopPropagation();
                  e.currentTarget.form?.requestSubmit();
                }
              }}
            />
            <div className="comment-actions">
              <button type="submit" className="button small primary" disabled={write.isPending}>
                Comment
              </button>
              {context.sendBack && (
                <button
                  type="button"
                  className="button small"
                  title={tooltip('rejectSegment')}
                  onClick={context.sendBack}
                >
                  Send back…
                </button>
              )}
            </div>
          </form>
        </>
      )}
      {documentThreads.length > 0 && (
        <>
          <h3 className="comments-subtitle">On the whole document</h3>
          <ul className="comment-threads" aria-label="Comments on the document">
            {documentThreads.map((thread) => (
              <ThreadView key={thread.first.id} thread={thread} {...threadProps} />
            ))}
          </ul>
        </>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function ThreadView({
  thread,
  me,
  busy,
  onReply,
  onResolve,
  onDelete,
}: {
  thread: Thread;
  me: Caller | undefined;
  busy: boolean;
  onReply: (parentId: number, text: string, done: () => void) => void;
  onResolve: (id: number, resolved: boolean) => void;
  onDelete: (id: number) => void;
}) {
  const [replying, setReplying] = useState(false);
  const { first } = thread;
  const mayDelete = (c: Comment) => c.user_id === me?.user_id || me?.role === 'admin';
  return (
    <li className={first.is_resolved ? 'comment-thread resolved' : 'comment-thread'}>
      {[first, ...thread.replies].map((c) => (
        <article key={c.id} className="comment" aria-label={`Comment by ${c.user}`}>
          <div className="comment-meta">
            <span className="strong">{c.user}</span>
            <span className="muted">{timeFormat.format(new Date(c.created_at * 1000))}</span>
            {c === first && first.is_resolved && <span className="status-badge resolved">Resolved</span>}
            {mayDelete(c) && (
              <button
                type="button"
                className="link-button"
                aria-label={`Delete the comment by ${c.user}`}
                disabled={busy}
                onClick={() => onDelete(c.id)}
              >
                Delete
              </button>
            )}
          </div>
          <p className="comment-text">
            {mentionParts(c.text, c.mentions).map((part, i) =>
              part.mention ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in order
                <mark key={i} className="mention">
                  {part.text}
                </mark>
              ) : (
                part.text
              ),
            )}
          </p>
        </article>
      ))}
      <div className="comment-actions">
        <button
          type="button"
          className="button small"
          aria-expanded={replying}
          onClick={() => setReplying(!replying)}
        >
          Reply
        </button>
        <button
          type="button"
          className="button small"
          disabled={busy}
          onClick={() => onResolve(first.id, !first.is_resolved)}
        >
          {first.is_resolved ? 'Reopen' : 'Resolve'}
        </button>
      </div>
      {replying && (
        <form
          className="comment-form"
          onSubmit={(e) => {
            e.preventDefault();
            const form = e.currentTarget;
            const text = String(new FormData(form).get('text') ?? '').trim();
            if (text) onReply(first.id, text, () => setReplying(false));
          }}
        >
          <label className="visually-hidden" htmlFor={`reply-${first.id}`}>
            Reply to {first.user}
          </label>
          <textarea id={`reply-${first.id}`} name="text" rows={2} maxLength={5000} autoFocus />
          <button type="submit" className="button small primary" disabled={busy}>
            Send reply
          </button>
        </form>
      )}
    </li>
  );
}
