import Router from '@koa/router';
import {
  ATTRIBUTE_MESSAGES,
  AttributeAnswerRequest,
  AttributeIndex,
  SESSION_NOT_FOUND,
  type AttributeAnswerResponse,
  type MyAttributeAnswers,
} from '@logovote/contracts';
import { findActivePoll, signalAnswersGiven, voterAnswers } from '@logovote/models';
import { HttpError, jsonBody, parseInput, parseJsonBody, pollOr404, requireCsrf, type Logger } from '@logovote/service-kit';
import { answerAttribute, type AnswerOutcome } from '../use-cases/answer-attribute';
import { voterFinder } from '../voter';
import { voterRequests } from './voter-request';
import { VOTING_REFUSED } from './votes';

export interface AttributesRouteOptions {
  csrfSecret: string;
  ipHashSalt: string;
  logger: Logger;
}

/** An answer that was not recorded, as HTTP says it. */
function answerRefusal(answer: Exclude<AnswerOutcome, { outcome: 'recorded' }>): HttpError {
  switch (answer.outcome) {
    case 'no-poll':
      return new HttpError(404, SESSION_NOT_FOUND);
    case 'voting-closed':
    case 'poll-hidden':
      return new HttpError(409, VOTING_REFUSED[answer.outcome]);
    case 'no-such-attribute':
      return new HttpError(404, ATTRIBUTE_MESSAGES.noSuchAttribute);
    case 'no-such-logo':
      return new HttpError(400, ATTRIBUTE_MESSAGES.noSuchLogo);
    case 'no-vote':
      return new HttpError(409, ATTRIBUTE_MESSAGES.noVote);
    case 'busy':
      return new HttpError(503, ATTRIBUTE_MESSAGES.busy);
  }
}

/**
 * PUT /api/sessions/{sessionId}/attributes/{index}: a voter's answer to one attribute question, and GET
 * my-attributes: the voter's answers, so a returning voter sees and changes them (docs/attributes.md).
 */
export function attributesRouter(options: AttributesRouteOptions): Router {
  const router = new Router({ prefix: '/api/sessions/:sessionId' });
  const findVoter = voterFinder(options.ipHashSalt);
  const voters = voterRequests(options.ipHashSalt);

  // The voter, the anti-forgery token and the poll are checked as for a vote.
  router.put('/attributes/:index', requireCsrf(options.csrfSecret), jsonBody(), async (ctx) => {
    const voter = voters.cluesOf(ctx, ctx.params.sessionId);
    const attribute = parseInput(AttributeIndex, ctx.params.index);
    const { logoId } = parseJsonBody(ctx, AttributeAnswerRequest);
    const pollId = ctx.params.sessionId!;
    const answered = await answerAttribute({ pollId, voterKey: findVoter(pollId, voter).voterKey, attribute, logoId });
    if (answered.outcome !== 'recorded') throw answerRefusal(answered);
    // Open results pages read the answers again on this signal; the answer stands without it.
    if (answered.changed) {
      await signalAnswersGiven(pollId).catch((error: unknown) => options.logger.warn({ err: error }, 'live answers signal not written'));
    }
    const body: AttributeAnswerResponse = { attribute, logoId };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.get('/my-attributes', async (ctx) => {
    const voter = voters.cluesOf(ctx, ctx.params.sessionId);
    const poll = pollOr404(await findActivePoll(ctx.params.sessionId, ['attributes']));
    const body: MyAttributeAnswers = { answers: await voterAnswers(findVoter(poll._id, voter).voterKey, poll.attributes?.length ?? 0) };
    // Per visitor (by header and cookie), so no cache may keep it for the URL.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  return router;
}
