import { PassThrough } from 'node:stream';
import { LIVE_ENDED_EVENT, LIVE_REASONS_EVENT, type LiveCounts, type LiveEnded, type LiveReasonsGiven } from '@logovote/contracts';
import { deletingPollIds, isPollShown, readPollStatus, signalSecond, voteSignalsOf, type StoredLogo, voteLedger } from '@logovote/models';
import { runInBackground, type Logger } from '@logovote/service-kit';
import { logosWithCounts, totalVotes } from '../polls/vote-counts';

type Counts = Map<string, number>;

export interface LiveCountsOptions {
  logger: Logger;
  /** How often the vote signals are read while this replica has viewers. */
  tickMs?: number;
  /** How often every stream gets a comment, so proxies and browsers keep idle streams open. */
  heartbeatMs?: number;
  /** How far behind this replica's clock a votes replica's clock may be (see tick). */
  clockSkewMs?: number;
  readCounts?: (pollId: string) => Promise<Counts>;
}

interface Viewer {
  stream: PassThrough;
  /** The last event written to it (events are compared as text: only changes are sent). */
  sent?: string;
  /** It may see the counts only while voting is closed (docs/results-visibility.md): its stream ends when voting reopens. */
  whileClosed: boolean;
}

interface WatchedPoll {
  pollId: string;
  logos: StoredLogo[];
  viewers: Set<Viewer>;
  /** The newest counts event read, sent to viewers that join. */
  latest?: string;
  /** A read of the counts under way, and whether another one is wanted after it. */
  reading?: Promise<void>;
  readAgain: boolean;
}

/** A viewer that has not taken this much of its stream is too slow (or gone). */
const MAX_BUFFERED_BYTES = 64 * 1024;
/** How often (in ticks of a second) polls being deleted are looked for. */
const DELETION_CHECKS_PER_SECOND = 1;
/** How far back a tick after a slow one reads signals (signals are kept 10 s). */
const MAX_SECONDS_BEHIND = 5;
/** The browser's wait before it reconnects a stream that ended (the EventSource `retry` field). */
const RECONNECT_MS = 5_000;

const eventText = (counts: LiveCounts): string => `data: ${JSON.stringify(counts)}\n\n`;
const endedEventText = (ended: LiveEnded): string => `event: ${LIVE_ENDED_EVENT}\ndata: ${JSON.stringify(ended)}\n\n`;
const reasonsEventText = (given: LiveReasonsGiven): string => `event: ${LIVE_REASONS_EVENT}\ndata: ${JSON.stringify(given)}\n\n`;

/**
 * The live results of one sessions replica (docs/live-results.md): event streams of a poll's counts,
 * one per viewer, fed by one loop whatever the number of viewers. Every tick the loop reads the vote
 * signals of the current and the previous second (two equality reads, see @logovote/models'
 * vote-signals), reads the counts once for each watched poll that a signal names, and writes them to
 * that poll's streams on this replica. Polls without viewers here cost nothing, and with no viewer at
 * all the loop stops.
 */
export class LiveCountsHub {
  private readonly polls = new Map<string, WatchedPoll>();
  /** Signals whose second had ended when their poll's counts were read: nothing can follow them unseen. */
  private readonly settled = new Set<string>();
  /** Reasons signals already announced to the streams once (they are announced again when they settle). */
  private readonly announced = new Set<string>();
  private loop: { stop(): Promise<void> } | undefined;
  /** The second the previous tick read up to. */
  private lastSecond: number | undefined;
  private ticks = 0;
  private readonly tickMs: number;
  private readonly heartbeatEvery: number;
  private readonly deletionCheckEvery: number;
  private readonly clockSkewMs: number;
  private readonly readCounts: (pollId: string) => Promise<Counts>;

  constructor(private readonly options: LiveCountsOptions) {
    this.tickMs = options.tickMs ?? 250;
    this.heartbeatEvery = Math.max(1, Math.round((options.heartbeatMs ?? 20_000) / this.tickMs));
    this.deletionCheckEvery = Math.max(1, Math.round(1000 / DELETION_CHECKS_PER_SECOND / this.tickMs));
    this.clockSkewMs = options.clockSkewMs ?? 250;
    this.readCounts = options.readCounts ?? voteLedger.readCounts;
  }

  /** How many streams are open on this replica. */
  get viewerCount(): number {
    let viewers = 0;
    for (const poll of this.polls.values()) viewers += poll.viewers.size;
    return viewers;
  }

  /**
   * A new viewer's stream of a poll's counts: the current counts first, then each change. `whileClosed`: the
   * viewer may see them only while voting is closed.
   */
  open(pollId: string, logos: StoredLogo[], { whileClosed }: { whileClosed: boolean }): PassThrough {
    const viewer: Viewer = { stream: new PassThrough(), whileClosed };
    let poll = this.polls.get(pollId);
    if (!poll) {
      poll = { pollId, logos, viewers: new Set(), readAgain: false };
      this.polls.set(pollId, poll);
    }
    poll.viewers.add(viewer);
    const watched = poll;
    viewer.stream.once('close', () => this.leave(watched, viewer));
    viewer.stream.write(`retry: ${RECONNECT_MS}\n\n`);
    if (watched.latest) this.send(viewer, watched.latest);
    else void this.refresh(watched);
    this.loop ??= runInBackground('live results', () => this.tick(), this.tickMs, this.options.logger);
    return viewer.stream;
  }

  /** Ends every stream (the service is stopping; browsers reconnect to another replica). */
  endAll(): void {
    for (const poll of this.polls.values()) for (const viewer of poll.viewers) viewer.stream.end();
  }

  /**
   * One pass of the loop. A signal names a poll that changed during its second; it can be followed by
   * more votes of the same second without a new signal, so a poll stays "changed" on every tick until
   * its signal's second has ended (plus the clock skew allowed between replicas) before the counts are read.
   */
  async tick(now: number = Date.now()): Promise<void> {
    this.ticks += 1;
    const second = signalSecond(now);
    // The current and the previous second; after a slow tick, every second since the previous one's too.
    const from = Math.max(second - MAX_SECONDS_BEHIND, Math.min(second - 1, this.lastSecond ?? second));
    this.lastSecond = second;
    const signals = [];
    for (let read = from; read <= second; read++) signals.push(...(await voteSignalsOf(read)));
    const changed = new Set<WatchedPoll>();
    const unshown = new Set<string>();
    const reasonsGiven = new Set<WatchedPoll>();
    for (const signal of signals) {
      const poll = this.polls.get(signal.pollId);
      if (!poll || this.settled.has(signal._id)) continue;
      const signalSecondEnd = (Number(signal._id.split('#', 1)[0]) + 1) * 1000;
      const settles = signalSecondEnd + this.clockSkewMs <= now;
      // A poll hidden or being deleted: checked (not re-read) until its signal settles, so a stream opened
      // just before the hide ends too.
      if (signal.visibility) unshown.add(poll.pollId);
      // Reasons: announced when first seen, and again when the second has ended, for reasons given later in it.
      else if (signal.reasons) {
        if (!this.announced.has(signal._id) || settles) reasonsGiven.add(poll);
        this.announced.add(signal._id);
      } else changed.add(poll);
      if (settles) this.settled.add(signal._id);
    }
    for (const seen of [this.settled, this.announced]) for (const id of seen) if (Number(id.split('#', 1)[0]) < from) seen.delete(id);
    await Promise.all([...changed].map((poll) => this.refresh(poll)));
    for (const poll of reasonsGiven) {
      const event = reasonsEventText({ sessionId: poll.pollId });
      for (const viewer of poll.viewers) this.write(viewer, event);
    }
    for (const pollId of unshown) {
      if (!(await isPollShown(pollId))) this.end(pollId);
      else await this.endWhileClosedIfOpen(pollId);
    }
    if (this.ticks % this.deletionCheckEvery === 0) {
      for (const pollId of await deletingPollIds()) this.end(pollId);
    }
    if (this.ticks % this.heartbeatEvery === 0) await this.heartbeat();
  }

  /** A comment on every stream, and the end of those of polls that no longer exist or are hidden. */
  private async heartbeat(): Promise<void> {
    for (const poll of [...this.polls.values()]) {
      if (!(await isPollShown(poll.pollId))) {
        this.end(poll.pollId);
        continue;
      }
      await this.endWhileClosedIfOpen(poll.pollId);
      for (const viewer of poll.viewers) this.write(viewer, ': keep-alive\n\n');
    }
  }

  /** Reads a poll's counts and sends them where they changed; reads of one poll run one after another. */
  private refresh(poll: WatchedPoll): Promise<void> {
    if (poll.reading) {
      poll.readAgain = true;
      return poll.reading;
    }
    poll.reading = (async () => {
      do {
        poll.readAgain = false;
        try {
          const logos = logosWithCounts(poll.logos, await this.readCounts(poll.pollId));
          poll.latest = eventText({ sessionId: poll.pollId, logos, totalVotes: totalVotes(logos) });
          for (const viewer of poll.viewers) this.send(viewer, poll.latest);
        } catch (error: unknown) {
          // The streams stay open: the next signal, or the next vote, reads again.
          this.options.logger.warn({ err: error, pollId: poll.pollId }, 'live results: counts not read');
        }
      } while (poll.readAgain);
    })().finally(() => {
      poll.reading = undefined;
    });
    return poll.reading;
  }

  private send(viewer: Viewer, event: string): void {
    if (viewer.sent === event) return;
    viewer.sent = event;
    this.write(viewer, event);
  }

  private write(viewer: Viewer, text: string): void {
    // A viewer that does not take what it is sent gets no more: its stream ends after what is queued (and
    // the gateway closes the connection of a client that takes nothing for a minute).
    if (viewer.stream.writableLength > MAX_BUFFERED_BYTES) viewer.stream.end();
    else if (viewer.stream.writable) viewer.stream.write(text);
  }

  /**
   * Ends the streams of viewers who may see a poll's counts only while voting is closed, if it is open (the
   * creator reopened it). Costs nothing for a poll without such viewers.
   */
  private async endWhileClosedIfOpen(pollId: string): Promise<void> {
    const viewers = [...(this.polls.get(pollId)?.viewers ?? [])].filter((viewer) => viewer.whileClosed);
    if (viewers.length === 0 || (await readPollStatus(pollId)).closed) return;
    this.end(pollId, viewers);
  }

  /** Ends a poll's streams (or those of `viewers`) with an event that says so: the page then reads the poll again (hidden, gone, or withheld). */
  private end(pollId: string, viewers: Iterable<Viewer> = this.polls.get(pollId)?.viewers ?? []): void {
    const ended = endedEventText({ sessionId: pollId });
    for (const viewer of viewers) {
      if (viewer.stream.writable) viewer.stream.write(ended);
      viewer.stream.end();
    }
  }

  private leave(poll: WatchedPoll, viewer: Viewer): void {
    poll.viewers.delete(viewer);
    if (poll.viewers.size > 0 || this.polls.get(poll.pollId) !== poll) return;
    this.polls.delete(poll.pollId);
    if (this.polls.size === 0 && this.loop) {
      void this.loop.stop();
      this.loop = undefined;
    }
  }
}
