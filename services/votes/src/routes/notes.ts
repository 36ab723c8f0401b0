import type { Context } from 'koa';
import Router from '@koa/router';
import { NOTE_MESSAGES, NoteQuery, NoteRequest, type MyNotes, type NoteResponse, type NotesPage } from '@logovote/contracts';
import { currentVote, notesOfVoter, putNote, readNotes, removeNote, seatChannel, signalReasonGiven } from '@logovote/models';
import {
  HttpError,
  jsonBody,
  parseInput,
  parseJsonBody,
  pollOr404,
  requireCsrf,
  resultsViewerClues,
  type Logger,
} from '@logovote/service-kit';
import { maskProfanity } from '../profanity';
import { pollToVoteOn, votingRefusal } from '../use-cases/cast-vote';
import { voterFinder } from '../voter';
import { readWordsPage } from './feedback';
import { voterRequests } from './voter-request';
import { UNKNOWN_LOGO, VOTING_REFUSED } from './votes';

export interface NotesRouteOptions {
  csrfSecret: string;
  ipHashSalt: string;
  logger: Logger;
}

/**
 * 'What would you change?' (docs/reasons.md, "Notes") under /api/sessions/{sessionId}: PUT and DELETE note
 * (the voter's, on one logo), GET my-notes (the voter's) and GET notes (everyone's, per logo). A note is
 * guarded as a reason is: the same voter, anti-forgery token, text rules, masking and closed-poll refusal.
 */
export function notesRouter(options: NotesRouteOptions): Router {
  const router = new Router({ prefix: '/api/sessions/:sessionId' });
  const findVoter = voterFinder(options.ipHashSalt);
  const voters = voterRequests(options.ipHashSalt);
  const viewerOf = resultsViewerClues(options);

  /** The poll and the voter of a write: a voter of this poll, with a vote, while voting is open. */
  async function writer(ctx: Context, logoId: string) {
    const voter = voters.cluesOf(ctx, ctx.params.sessionId);
    const poll = pollOr404(await pollToVoteOn(ctx.params.sessionId));
    if (!poll.logos.some((logo) => logo.id === logoId)) throw new HttpError(400, UNKNOWN_LOGO);
    const stopped = await votingRefusal(poll._id);
    if (stopped) throw new HttpError(409, VOTING_REFUSED[stopped]);
    const { voterKey } = findVoter(poll._id, voter);
    // Voters' notes only: a vote is what the seat and proof-of-work rules let in, once per person.
    if ((await currentVote(voterKey)).logoId === null) throw new HttpError(409, NOTE_MESSAGES.noVote);
    return { poll, voterKey };
  }

  router.put('/note', requireCsrf(options.csrfSecret), jsonBody(), async (ctx) => {
    const { logoId, note } = parseJsonBody(ctx, NoteRequest);
    const { poll, voterKey } = await writer(ctx, logoId);
    const text = maskProfanity(note);
    const stored = await putNote({ pollId: poll._id, logoId, voterKey, text, channel: await seatChannel(voterKey) });
    if (stored === 'busy') throw new HttpError(503, 'Many notes are being sent right now. Please try again.');
    // Open results pages read the voters' words again on this signal (docs/live-results.md); the note stands without it.
    await signalReasonGiven(poll._id).catch((error: unknown) => options.logger.warn({ err: error }, 'live notes signal not written'));
    const body: NoteResponse = { logoId, note: text };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.delete('/note', requireCsrf(options.csrfSecret), async (ctx) => {
    const { logoId } = parseInput(NoteQuery, ctx.query);
    const { poll, voterKey } = await writer(ctx, logoId);
    // Removing a note that is not there leaves the same result: no note.
    if (await removeNote(voterKey, logoId)) {
      await signalReasonGiven(poll._id).catch((error: unknown) => options.logger.warn({ err: error }, 'live notes signal not written'));
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 204;
  });

  router.get('/my-notes', async (ctx) => {
    const voter = voters.cluesOf(ctx, ctx.params.sessionId);
    const poll = pollOr404(await pollToVoteOn(ctx.params.sessionId));
    const { voterKey } = findVoter(poll._id, voter);
    const body: MyNotes = { notes: (await notesOfVoter(voterKey)).map((note) => ({ logoId: note.logoId, note: note.text })) };
    // Per visitor (by header and cookie), so no cache may keep it for the URL.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  // Notes show opinions as reasons do: withheld with the counts (docs/results-visibility.md).
  router.get('/notes', async (ctx) => {
    const page = await readWordsPage(ctx, viewerOf, async (pollId, logoId, before) => {
      const { notes, next } = await readNotes(pollId, logoId, before);
      return { entries: notes, next };
    });
    const body: NotesPage = { notes: page.entries.map(({ text, ...rest }) => ({ note: text, ...rest })), next: page.next };
    ctx.body = body;
  });

  return router;
}
