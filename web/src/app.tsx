// The application shell: who is signed in, the navigation, and the routes (the editor loads as its own chunk).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { AccountPage } from './account/account-page.tsx';
import { AdminPage } from './admin/admin-page.tsx';
import { ApiError, api, whenSignedOut } from './api/client.ts';
import { meKey } from './api/keys/users.ts';
import { isManager, roleLabel } from './auth/roles.ts';
import { SignInPage } from './auth/sign-in-page.tsx';
import { JobsPage } from './jobs/jobs-page.tsx';
import { MemoriesPage } from './memories/memories-page.tsx';
import { MemoryPage } from './memories/memory-page.tsx';
import { NotificationBell } from './notifications/notification-bell.tsx';
import { ProjectPage } from './projects/project-page.tsx';
import { ProjectsPage } from './projects/projects-page.tsx';
import { QualityReportPage } from './quality/quality-report-page.tsx';

// CodeMirror is half the code: only the editor route loads it.
const EditorPage = lazy(() => import('./editor/editor-page.tsx'));

/** Whatever the previous session saw is not this one's to see. */
function forgetAllButMe(queryClient: ReturnType<typeof useQueryClient>) {
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== meKey[0] });
}

export function App() {
  const queryClient = useQueryClient();
  const [location, navigate] = useLocation();
  const me = useQuery({
    queryKey: meKey,
    queryFn: api.me,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

  useEffect(() => {
    whenSignedOut(() => queryClient.setQueryData(meKey, null));
  }, [queryClient]);

  if (me.isPending) return null;
  const signedOut = me.data === null || (me.error instanceof ApiError && me.error.status === 401);
  if (signedOut || location === '/login') {
    return (
      <SignInPage
        onSignedIn={(caller) => {
          forgetAllButMe(queryClient);
          queryClient.setQueryData(meKey, caller);
          if (location === '/login') navigate('/projects', { replace: true });
        }}
      />
    );
  }
  if (me.error) return <p className="page-error">The server could not be reached: {me.error.message}</p>;
  const caller = me.data!;

  return (
    <div className="shell">
      <header className="topbar">
        <Link href="/projects" className="brand" aria-label="Tessera home">
          <span className="brand-mark" aria-hidden="true" />
          Tessera
        </Link>
        <nav aria-label="Main">
          <Link
            href="/projects"
            className={() => (/^\/(projects|documents)\b/.test(location) ? 'active' : '')}
          >
            Projects
          </Link>
          {isManager(caller.role) && (
            <>
              <Link href="/memories" className={() => (/^\/memories\b/.test(location) ? 'active' : '')}>
                Memories
              </Link>
              <Link href="/jobs" className={(active) => (active ? 'active' : '')}>
                Jobs
              </Link>
            </>
          )}
          {caller.role === 'admin' && (
            <Link href="/admin" className={(active) => (active ? 'active' : '')}>
              Admin
            </Link>
          )}
        </nav>
        <div className="topbar-user">
          <NotificationBell />
          <Link
            href="/account"
            className={(active) => (active ? 'account active' : 'account')}
            title={`Signed in as ${caller.username} (${roleLabel(caller.role)})`}
          >
            <span className="visually-hidden">My account: </span>
            {caller.username}
          </Link>
          <button
            type="button"
            className="sign-out"
            onClick={async () => {
              await api.signOut().catch(() => {});
              queryClient.setQueryData(meKey, null);
              forgetAllButMe(queryClient);
            }}
          >
            Sign out
          </button>
        </div>
      </header>
      <Switch>
        <Route path="/">
          <Redirect to="/projects" replace />
        </Route>
        <Route path="/projects" component={ProjectsPage} />
        <Route path="/projects/:id">{(params) => <ProjectPage id={Number(params.id)} />}</Route>
        <Route path="/documents/:id/quality">
          {(params) => <QualityReportPage documentId={Number(params.id)} />}
        </Route>
        <Route path="/documents/:id">
          {(params) => (
            <Suspense fallback={<main className="page loading">Loading the editor…</main>}>
              <EditorPage id={Number(params.id)} />
            </Suspense>
          )}
        </Route>
        {/* Memories and jobs are the managers' (src/http/policy.ts): a linguist who follows an old link is told
            so, rather than shown exports and deletions the server refuses. */}
        <Route path="/memories">
          {isManager(caller.role) ? <MemoriesPage /> : <ManagersOnly title="Memories" />}
        </Route>
        <Route path="/memories/:id">
          {(params) =>
            isManager(caller.role) ? <MemoryPage id={Number(params.id)} /> : <ManagersOnly title="Memories" />
          }
        </Route>
        <Route path="/jobs">{isManager(caller.role) ? <JobsPage /> : <ManagersOnly title="Jobs" />}</Route>
        <Route path="/admin">
          {caller.role === 'admin' ? (
            <AdminPage me={caller.user_id} />
          ) : (
            <main className="page">
              <h1>Administration</h1>
              <p className="muted">Only admins of the organization see this page.</p>
            </main>
          )}
        </Route>
        <Route path="/account">
          <AccountPage caller={caller} />
        </Route>
        <Route>
          <main className="page">
            <h1>Page not found</h1>
            <p>
              <Link href="/projects">Back to the projects</Link>
            </p>
          </main>
        </Route>
      </Switch>
    </div>
  );
}

/** A managers' page as a translator or reviewer sees it. */
function ManagersOnly({ title }: { title: string }) {
  return (
    <main className="page">
      <h1>{title}</h1>
      <p className="muted">
        Only project managers and admins see this page. Your documents are under{' '}
        <Link href="/projects">Projects</Link>.
      </p>
    </main>
  );
}
