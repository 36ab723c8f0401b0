/**
 * The reference flow's server: the floor of this architecture on this machine. It answers the three
 * requests of a voter flow (the session, my-vote, the vote) under /reference, through the same gateway,
 * with the services' own Koa app and database connection (request log, JSON errors, /metrics), and does
 * the least a vote can: one indexed read (the poll by its key) and one insert (the vote). `npm run bench`
 * runs it beside the stack and reports the product's voter flows as a share of its flows.
 *
 *   PORT=4999 MONGODB_URI=mongodb://127.0.0.1:27017/logovote tsx bench/reference/server.ts
 */
import Router from '@koa/router';
import mongoose, { Schema } from 'mongoose';
import { VoteRequest } from '@logovote/contracts';
import {
  HttpError,
  connectMongo,
  createLogger,
  createServiceApp,
  jsonBody,
  mongoReadiness,
  parseJsonBody,
  runServer,
} from '@logovote/service-kit';

const ReferencePoll = mongoose.model(
  'ReferencePoll',
  new Schema({ _id: String, logoIds: [String] }, { collection: 'reference_polls', versionKey: false }),
);
const ReferenceVote = mongoose.model(
  'ReferenceVote',
  new Schema({ pollId: String, fingerprint: String, logoId: String, at: Date }, { collection: 'reference_votes', versionKey: false }),
);

/** Gives each of `polls` a reference twin under the same key, so both flows read the same keys. */
export async function seedReferencePolls(polls: { sessionId: string; logoIds: string[] }[]): Promise<void> {
  await ReferencePoll.insertMany(polls.map((poll) => ({ _id: poll.sessionId, logoIds: poll.logoIds })));
}

function referenceRouter(): Router {
  const router = new Router({ prefix: '/reference/api/sessions/:sessionId' });
  router.get('/', async (ctx) => {
    const poll = await ReferencePoll.findById(ctx.params.sessionId).lean();
    if (!poll) throw new HttpError(404, 'Voting session not found');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { sessionId: poll._id, logos: poll.logoIds.map((id) => ({ id, voteCount: 0 })), csrfToken: 'reference' };
  });
  router.get('/my-vote', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { hasVoted: false, logoId: null };
  });
  router.post('/vote', jsonBody(), async (ctx) => {
    const { logoId } = parseJsonBody(ctx, VoteRequest);
    await ReferenceVote.create({ pollId: ctx.params.sessionId, fingerprint: ctx.get('X-Client-Fingerprint'), logoId, at: new Date() });
    ctx.body = { logoId };
  });
  return router;
}

if (require.main === module) {
  const logger = createLogger('reference', process.env.LOG_LEVEL ?? 'info');
  const port = Number(process.env.PORT);
  void connectMongo(process.env.MONGODB_URI ?? '', logger).then(() =>
    runServer({
      app: createServiceApp({ service: 'reference', logger, routers: [referenceRouter()], readiness: [mongoReadiness] }),
      host: '127.0.0.1',
      port,
      logger,
      onShutdown: () => mongoose.disconnect(),
    }),
  );
}
