import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from './App';
import { createQueryClient } from './query-client';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('LogoVote: #root element is missing from index.html');

createRoot(container).render(
  <StrictMode>
    <App queryClient={createQueryClient()} />
  </StrictMode>,
);
