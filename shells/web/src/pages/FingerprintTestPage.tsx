import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  CheckIcon,
  CopyIcon,
  toast,
  Tooltip,
  TooltipContent,
  TooltipProvider,
  TooltipTrigger,
  XIcon,
} from '@logovote/ui';
import { api, getFingerprint, clearStoredFingerprint, storedFingerprint } from '@logovote/web-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';

const TEST_VOTES_KEY = ['test-fingerprint', 'votes'] as const;
const PLUGINS_SHOWN_CHARS = 100;

type NavigatorExtras = Navigator & { deviceMemory?: number };

function storageAvailable(): boolean {
  try {
    const probe = '__logovote_storage_probe__';
    window.localStorage.setItem(probe, probe);
    window.localStorage.removeItem(probe);
    return true;
  } catch {
    return false;
  }
}

/** Spec section 2's browser details, read once per render of the page. */
function browserDetails(): [string, string][] {
  const nav = navigator as NavigatorExtras;
  const plugins = Array.from(nav.plugins ?? [], (plugin) => plugin.name).join(', ');
  return [
    ['User agent', nav.userAgent],
    ['Language', nav.language],
    ['Screen', `${screen.width}x${screen.height}, ${screen.colorDepth}-bit colour`],
    ['Timezone offset', `${new Date().getTimezoneOffset()} minutes`],
    ['Platform', nav.platform || 'Unknown'],
    ['CPU cores', nav.hardwareConcurrency ? String(nav.hardwareConcurrency) : 'Unknown'],
    ['Device memory', nav.deviceMemory ? `${nav.deviceMemory} GB` : 'Unknown'],
    ['Local storage', storageAvailable() ? 'Available' : 'Unavailable'],
    ['Plugins', plugins ? plugins.slice(0, PLUGINS_SHOWN_CHARS) : 'None'],
    ['Stored fingerprint', storedFingerprint() ?? 'None'],
  ];
}

function Check({ ok }: { ok: boolean }) {
  return ok ? (
    <span className="inline-flex items-center text-green-700">
      <CheckIcon className="size-4" />
      <span className="sr-only">Match</span>
    </span>
  ) : (
    <span className="inline-flex items-center text-destructive">
      <XIcon className="size-4" />
      <span className="sr-only">No match</span>
    </span>
  );
}

function Th({ children }: { children: ReactNode }) {
  return (
    <th scope="col" className="px-3 py-2 text-left font-medium whitespace-nowrap">
      {children}
    </th>
  );
}

/** Fingerprint testing tool (spec section 2, /test/fingerprint). */
export default function FingerprintTestPage() {
  const queryClient = useQueryClient();
  const fingerprint = useQuery({ queryKey: ['fingerprint'], queryFn: getFingerprint });
  const votes = useQuery({
    queryKey: TEST_VOTES_KEY,
    queryFn: async () => {
      try {
        return await api.listTestVotes();
      } catch (error) {
        toast({ title: 'Error', description: 'Failed to fetch test votes', variant: 'destructive' });
        throw error;
      }
    },
  });
  const current = fingerprint.data;

  const createSession = useMutation({
    mutationFn: () => api.createTestSession(),
    onSuccess: ({ sessionId }) => toast({ title: 'Test session created', description: `Session ID: ${sessionId}` }),
    onError: () => toast({ title: 'Error', description: 'Failed to create test session', variant: 'destructive' }),
  });

  const submitVote = useMutation({
    mutationFn: (voterFingerprint: string) =>
      api.submitTestVote(voterFingerprint, { userAgent: navigator.userAgent, submittedAt: new Date().toISOString() }),
    onSuccess: () => {
      toast({ title: 'Test vote submitted', description: 'The vote was recorded with your current fingerprint.' });
      void queryClient.invalidateQueries({ queryKey: TEST_VOTES_KEY });
    },
    onError: () => toast({ title: 'Error', description: 'Failed to submit test vote', variant: 'destructive' }),
  });

  const vote = () => {
    if (!current) {
      toast({ title: 'Error', description: 'No fingerprint available', variant: 'destructive' });
      return;
    }
    submitVote.mutate(current);
  };

  const copy = async () => {
    if (!current) return;
    try {
      await navigator.clipboard.writeText(current);
      toast({ title: 'Copied!', description: 'The fingerprint has been copied to the clipboard.' });
    } catch {
      toast({ title: 'Error', description: 'Could not copy to the clipboard.', variant: 'destructive' });
    }
  };

  const clear = () => {
    clearStoredFingerprint();
    window.location.reload();
  };

  return (
    <TooltipProvider>
      <section data-page="test-fingerprint" className="mx-auto flex w-full max-w-5xl flex-col gap-6">
        <header className="flex flex-col gap-1">
          <h1 className="text-3xl font-bold tracking-tight">Fingerprint Testing Tool</h1>
          <p className="text-muted-foreground">Inspect this browser&apos;s fingerprint and record test votes with it.</p>
        </header>

        <Card>
          <CardHeader>
            <CardTitle className="text-xl">
              <h2>Current Fingerprint</h2>
            </CardTitle>
            <CardDescription>
              Made from the user agent, language, screen size and timezone offset, and kept in this browser.
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            <div className="flex flex-wrap items-center gap-2">
              <code data-testid="current-fingerprint" className="rounded-md bg-muted px-3 py-2 font-mono text-lg">
                {current ?? (fingerprint.isError ? 'No fingerprint available' : 'Generating…')}
              </code>
              <Tooltip>
                <TooltipTrigger asChild>
                  <Button variant="outline" size="icon" onClick={() => void copy()} disabled={!current} aria-label="Copy fingerprint">
                    <CopyIcon />
                  </Button>
                </TooltipTrigger>
                <TooltipContent>Copy fingerprint</TooltipContent>
              </Tooltip>
            </div>
            <div>
              <Button variant="destructive" onClick={clear}>
                Clear Stored Fingerprint
              </Button>
            </div>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle className="text-xl">
              <h2>Browser Details</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <dl data-testid="browser-details" className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
              {browserDetails().map(([label, value]) => (
                <div key={label} className="contents">
                  <dt className="font-medium">{label}</dt>
                  <dd className="mb-2 break-all text-muted-foreground sm:mb-0">{value}</dd>
                </div>
              ))}
            </dl>
          </CardContent>
        </Card>

        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
          <Button variant="outline" onClick={() => createSession.mutate()} disabled={createSession.isPending}>
            Create New Test Session
          </Button>
          <Button onClick={vote} disabled={submitVote.isPending}>
            Submit Test Vote
          </Button>
          <Button variant="secondary" onClick={() => void votes.refetch()} disabled={votes.isFetching}>
            Refresh Vote Data
          </Button>
        </div>

        <Card>
          <CardHeader>
            <CardTitle className="text-xl">
              <h2>Test Vote History</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            {votes.data && votes.data.length > 0 ? (
              <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Test vote history">
                <table data-testid="test-votes" className="w-full border-collapse text-sm">
                  <thead className="border-b border-border">
                    <tr>
                      <Th>ID</Th>
                      <Th>Session ID</Th>
                      <Th>Fingerprint</Th>
                      <Th>Created At</Th>
                      <Th>Match</Th>
                    </tr>
                  </thead>
                  <tbody>
                    {votes.data.map((record) => {
                      const isCurrent = record.voterFingerprint === current;
                      return (
                        <tr key={record.id} className="border-b border-border last:border-0">
                          <td className="px-3 py-2 font-mono text-xs">{record.id}</td>
                          <td className="px-3 py-2 font-mono text-xs">{record.sessionId}</td>
                          <td className="px-3 py-2 font-mono text-xs whitespace-nowrap">
                            {record.voterFingerprint}
                            {isCurrent && (
                              <span className="ml-2 rounded-full bg-primary px-2 py-0.5 font-sans text-[0.7rem] font-semibold text-primary-foreground">
                                Current
                              </span>
                            )}
                          </td>
                          <td className="px-3 py-2 whitespace-nowrap">{new Date(record.createdAt).toLocaleString()}</td>
                          <td className="px-3 py-2">
                            <Check ok={isCurrent} />
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            ) : (
              <p className="text-sm text-muted-foreground">{votes.isPending ? 'Loading…' : 'No test votes have been recorded yet.'}</p>
            )}
          </CardContent>
        </Card>
      </section>
    </TooltipProvider>
  );
}
