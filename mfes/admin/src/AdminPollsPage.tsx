import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@logovote/ui';
import { useQueryClient } from '@tanstack/react-query';

import './styles.css';

/** Props the shell passes to the admin screen (route `/admin/polls`). */
export type AdminPollsPageProps = Record<string, never>;

/** Admin poll management (walking-skeleton placeholder). */
export default function AdminPollsPage(_props: AdminPollsPageProps) {
  // Fails loudly if the shell's QueryClient is not shared with this remote.
  useQueryClient();
  return (
    <section data-remote="admin" className="mx-auto flex w-full max-w-5xl flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1>Poll Management</h1>
          </CardTitle>
          <CardDescription>Admin polls page</CardDescription>
        </CardHeader>
        <CardContent>
          <p className="text-sm text-muted-foreground">
            Placeholder from the <code>logovote_admin</code> remote. The poll list, details and delete dialog come next.
          </p>
        </CardContent>
      </Card>
    </section>
  );
}
