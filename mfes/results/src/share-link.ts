import { toast } from '@logovote/ui';

/** Spec section 2: copies {origin}/vote/{sessionId} and confirms with 'Link copied!'. */
export async function copyVotingLink(sessionId: string): Promise<void> {
  const url = `${window.location.origin}/vote/${encodeURIComponent(sessionId)}`;
  try {
    await navigator.clipboard.writeText(url);
    toast({ title: 'Link copied!', description: 'Voting link has been copied to clipboard.' });
  } catch {
    toast({ title: 'Error', description: `Could not copy to the clipboard. The voting link is ${url}`, variant: 'destructive' });
  }
}
