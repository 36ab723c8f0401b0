import { toast } from './toast-events';

/**
 * Copies a link and says so in a toast: 'Link copied!' / '{what} has been copied to clipboard.' (the spec's
 * words for the voting link). Where the clipboard refuses, the toast gives the link to copy by hand.
 */
export async function copyLink(what: string, url: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
    toast({ title: 'Link copied!', description: `${what} has been copied to clipboard.` });
  } catch {
    toast({ title: 'Error', description: `Could not copy to the clipboard. The link is ${url}`, variant: 'destructive' });
  }
}
