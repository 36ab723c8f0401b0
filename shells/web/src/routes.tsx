import { matchPath, useLocation } from '@logovote/ui';
import { analytics } from '@logovote/web-client';
import { lazy, Suspense, useEffect, type ReactNode } from 'react';

import { ShellLayout } from './layout/ShellLayout';
import { NotFoundPage, NOT_FOUND_TITLE } from './pages/NotFoundPage';
import { RemoteScreen } from './remotes/RemoteScreen';
import { REMOTE_PATHS } from './remotes/route-remotes';
import { PageLoading } from './remotes/RemoteStatus';
import { useDocumentTitle } from './use-document-title';

// The shell's own pages load on demand, like the remotes: the voting page's first load carries none of them.
const TermsPage = lazy(() => import(/* webpackChunkName: "page-terms" */ './pages/TermsPage'));
const ModerationTestPage = lazy(() => import(/* webpackChunkName: "page-test-moderate" */ './pages/ModerationTestPage'));
const FingerprintTestPage = lazy(() => import(/* webpackChunkName: "page-test-fingerprint" */ './pages/FingerprintTestPage'));
const ConfidenceHelpPage = lazy(() => import(/* webpackChunkName: "page-help-confidence" */ './pages/ConfidenceHelpPage'));

type RouteDef = {
  path: string;
  title: string;
  render: (params: Record<string, string>) => ReactNode;
};

/** The route table (spec section 2). Remote screens receive route params as props. */
export const ROUTES: readonly RouteDef[] = [
  { path: REMOTE_PATHS.create, title: 'LogoVote', render: () => <RemoteScreen remote="create" props={{}} /> },
  {
    path: REMOTE_PATHS.vote,
    title: 'Vote · LogoVote',
    render: ({ sessionId = '' }) => <RemoteScreen remote="vote" props={{ sessionId }} />,
  },
  {
    path: REMOTE_PATHS.results,
    title: 'Results · LogoVote',
    render: ({ sessionId = '' }) => <RemoteScreen remote="results" props={{ sessionId }} />,
  },
  { path: REMOTE_PATHS.admin, title: 'Poll Management · LogoVote', render: () => <RemoteScreen remote="admin" props={{}} /> },
  { path: '/terms', title: 'Terms of Use · LogoVote', render: () => <TermsPage /> },
  { path: '/help/confidence', title: 'How is this decided? · LogoVote', render: () => <ConfidenceHelpPage /> },
  { path: '/test/moderate', title: 'Image Moderation Test · LogoVote', render: () => <ModerationTestPage /> },
  { path: '/test/fingerprint', title: 'Fingerprint Testing Tool · LogoVote', render: () => <FingerprintTestPage /> },
];

function resolve(pathname: string): { title: string; element: ReactNode } {
  for (const route of ROUTES) {
    const params = matchPath(route.path, pathname);
    if (params) return { title: route.title, element: route.render(params) };
  }
  return { title: NOT_FOUND_TITLE, element: <NotFoundPage /> };
}

export function ShellRoutes() {
  const { pathname } = useLocation();
  const { title, element } = resolve(pathname);
  useDocumentTitle(title);
  useEffect(() => {
    window.scrollTo(0, 0);
    // Spec section 2: a page view on every route change (the router announces each one by re-rendering here).
    analytics.pageView();
  }, [pathname]);
  return (
    <ShellLayout>
      <Suspense fallback={<PageLoading />}>{element}</Suspense>
    </ShellLayout>
  );
}
