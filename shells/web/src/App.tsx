import type { QueryClient } from '@tanstack/react-query';
import { QueryClientProvider } from '@tanstack/react-query';

import { DeferredToaster } from './deferred-toaster';
import { ShellRoutes } from './routes';

/**
 * The page's single providers: the query client (shared with the remotes as an MF singleton) and the
 * one toast area that shows toasts raised anywhere, remotes included (its code loads when first
 * needed). Tooltips are provided by each screen that has some (TooltipProvider from @logovote/ui, with
 * the spec's timing), so pages without tooltips, like the voting page, do not load the tooltip library.
 */
export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ShellRoutes />
      <DeferredToaster />
    </QueryClientProvider>
  );
}
