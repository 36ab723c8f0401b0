import { StrictMode } from 'react';
import { matchPath } from '@logovote/ui';
import { api, getFingerprint } from '@logovote/web-client';
import { createRoot } from 'react-dom/client';

import { App } from './App';
import { createQueryClient } from './query-client';
import { REMOTE_PATHS } from './remotes/route-remotes';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('LogoVote: #root element is missing from index.html');

// The voting page shows nothing but 'Loading' until it knows whether this visitor has voted: that
// read (and the fingerprint it needs) starts now, while the remote's code is still on its way, rather
// than once the screen first renders; the screen takes the answer over.
const votePoll = matchPath(REMOTE_PATHS.vote, window.location.pathname)?.sessionId;
if (votePoll) {
  getFingerprint()
    .then((fingerprint) => api.prefetchMyVote(votePoll, fingerprint))
    .catch(() => undefined);
}

createRoot(container).render(
  <StrictMode>
    <App queryClient={createQueryClient()} />
  </StrictMode>,
);
