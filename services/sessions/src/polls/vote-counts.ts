import type { Logo } from '@logovote/contracts';
import { logoName, storedLogoBackdrop, type StoredLogo, voteLedger } from '@logovote/models';

/** The public view of a poll's logos with their current counts (from the votes collection). */
export function logosWithCounts(logos: StoredLogo[], counts: Map<string, number> | undefined): Logo[] {
  return logos.map((logo) => ({
    id: logo.id,
    filename: logo.filename,
    originalName: logo.originalName,
    name: logoName(logo),
    voteCount: counts?.get(logo.id) ?? 0,
    backdrop: storedLogoBackdrop(logo),
  }));
}

export const totalVotes = (logos: Logo[]) => logos.reduce((sum, logo) => sum + logo.voteCount, 0);

type Counts = Map<string, number>;

/**
 * voteLedger.readCounts for the session view, with the requests for one poll that arrive while its counts
 * are being read sharing the next read rather than each starting one. A request never joins a read
 * already running, only one that starts after it arrived, so every answer still counts every vote
 * acknowledged before the request. A busy poll's counts are then read back to back (about once per
 * read, however many visitors ask) instead of once per request.
 */
export function sharedVoteCounts(read: (pollId: string) => Promise<Counts> = voteLedger.readCounts): (pollId: string) => Promise<Counts> {
  const running = new Map<string, Promise<Counts>>();
  const queued = new Map<string, Promise<Counts>>();

  const start = (pollId: string): Promise<Counts> => {
    const reading = read(pollId).finally(() => {
      if (running.get(pollId) === reading) running.delete(pollId);
    });
    running.set(pollId, reading);
    return reading;
  };

  return (pollId) => {
    const next = queued.get(pollId);
    if (next) return next;
    const current = running.get(pollId);
    if (!current) return start(pollId);
    const after = current
      .catch(() => undefined)
      .then(() => {
        queued.delete(pollId);
        return start(pollId);
      });
    queued.set(pollId, after);
    return after;
  };
}
