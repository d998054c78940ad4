// The header's bell: the caller's unread notifications (a mention, a segment sent back, an assignment…) counted
// on it, listed under it, each a link to what it is about; new ones arrive live (GET /v2/events?notifications=true).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { api } from '../api/client.ts';
import { notificationsKey } from '../api/keys/notifications.ts';
import { useLiveEvents } from '../live/use-live-events.ts';

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function NotificationBell() {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const root = useRef<HTMLDivElement>(null);
  const live = useLiveEvents(
    { notifications: true },
    { notification: () => queryClient.invalidateQueries({ queryKey: notificationsKey }) },
  );
  const notifications = useQuery({
    queryKey: notificationsKey,
    queryFn: api.notifications,
    // Followed live; polled only while the event stream is not open.
    refetchInterval: live ? false : 30_000,
  });
  const markRead = useMutation({
    mutationFn: (ids?: number[]) => api.markNotificationsRead(ids),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsKey }),
  });
  // A click elsewhere closes the list.
  useEffect(() => {
    if (!open) return;
    const close = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    return () => document.removeEventListener('pointerdown', close);
  }, [open]);

  const unread = notifications.data?.unread ?? 0;
  const list = notifications.data?.notifications ?? [];
  return (
    <div className="bell" ref={root}>
      <button
        type="button"
        className="bell-button"
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18">
          <path
            d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z"
            fill="currentColor"
          />
        </svg>
        {unread > 0 && (
          <span className="bell-count" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {open && (
        <section
          id={listId}
          className="bell-list"
          aria-label="Notifications"
          onKeyDown={(e) => {
            if (e.key === 'Escape') setOpen(false);
          }}
        >
          <div className="bell-head">
            <h2>Notifications</h2>
            {unread > 0 && (
              <button type="button" className="link-button" onClick={() => markRead.mutate(undefined)}>
                Mark all read
              </button>
            )}
          </div>
          {list.length === 0 ? (
            <p className="muted">Nothing yet. Mentions and segments sent back to you show here.</p>
          ) : (
            <ul>
              {list.map((n) => (
                <li key={n.id} className={n.is_read ? 'bell-item' : 'bell-item unread'}>
                  {n.link ? (
                    <Link
                      href={n.link}
                      onClick={() => {
                        if (!n.is_read) markRead.mutate([n.id]);
                        setOpen(false);
                      }}
                    >
                      {n.text}
                    </Link>
                  ) : (
                    <span>{n.text}</span>
                  )}
                  <span className="muted bell-time">
                    {n.is_read ? '' : 'New · '}
                    {timeFormat.format(new Date(n.created_at * 1000))}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
