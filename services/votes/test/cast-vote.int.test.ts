/**
 * The vote use case on its own, without HTTP: each ballot answers one typed outcome, and a browser's
 * voter cookie is asked for only once the poll and the ballot are known to be valid.
 */
import { PollModel, VoterCookieModel, VoterSeatModel, recordVotingState, voteLedger } from '@logovote/models';
import { addressPolicies } from '../src/app';
import { loadConfig } from '../src/config';
import { proofOfWork } from '../src/proof-of-work';
import { voteCaster, type CastVoteRequest } from '../src/use-cases/cast-vote';
import {
  TEST_CSRF_SECRET,
  TEST_IP_HASH_SALT,
  connectTestDatabase,
  createPoll,
  dropTestDatabase,
  newFingerprint,
  newSessionId,
  silentLogger,
  testDatabaseUri,
} from '../../../tests/support/integration';

jest.setTimeout(30_000);

const config = loadConfig({
  MONGODB_URI: testDatabaseUri('cast_vote'),
  CSRF_SECRET: TEST_CSRF_SECRET,
  IP_HASH_SALT: TEST_IP_HASH_SALT,
  VOTES_PER_IP_PER_POLL: '2',
  PROOF_OF_WORK_FROM_VOTER: '2',
});
const castVote = voteCaster({
  ipHashSalt: config.IP_HASH_SALT,
  addressPolicies: addressPolicies(config),
  proofOfWork: proofOfWork({ secret: config.IP_HASH_SALT, iterations: config.PROOF_OF_WORK_ITERATIONS }),
  logger: silentLogger,
});

beforeAll(() => connectTestDatabase(config.MONGODB_URI, [PollModel, VoterSeatModel, VoterCookieModel, voteLedger.RevisionModel]));
afterAll(dropTestDatabase);

/** A ballot from a new browser at `ip`; `cookieAsked` counts how often its voter cookie was asked for. */
function ballot(sessionId: string, logoId: string, ip = '10.1.0.1') {
  const browser = { cookieAsked: 0 };
  const request: CastVoteRequest = {
    sessionId,
    logoId,
    proof: '',
    voter: {
      fingerprint: newFingerprint(),
      ip,
      cookie: () => {
        browser.cookieAsked += 1;
        return { value: `cookie-of-${ip}-${request.voter.fingerprint}`, issued: true };
      },
    },
  };
  return { request, browser };
}

it('refuses a ballot for no poll, an unknown logo or an unknown channel before asking for the voter cookie', async () => {
  const { sessionId, logoIds } = await createPoll();
  const noPoll = ballot(newSessionId(), logoIds[0]!);
  expect(await castVote(noPoll.request)).toEqual({ outcome: 'poll-not-found' });
  const unknownLogo = ballot(sessionId, 'not-a-logo');
  expect(await castVote(unknownLogo.request)).toEqual({ outcome: 'unknown-logo' });
  const unknownChannel = ballot(sessionId, logoIds[0]!);
  expect(await castVote({ ...unknownChannel.request, via: 'nochannel' })).toEqual({ outcome: 'unknown-channel' });
  expect([noPoll, unknownLogo, unknownChannel].map(({ browser }) => browser.cookieAsked)).toEqual([0, 0, 0]);
  expect(await voteLedger.readCounts(sessionId)).toEqual(new Map());
});

it('records a vote, asks a second voter of the address for a proof of work, then refuses one with a forged proof', async () => {
  const { sessionId, logoIds } = await createPoll();
  const first = ballot(sessionId, logoIds[0]!);
  expect(await castVote(first.request)).toEqual({ outcome: 'recorded', logoId: logoIds[0] });
  expect(first.browser.cookieAsked).toBe(1);

  const second = ballot(sessionId, logoIds[1]!);
  const refused = await castVote(second.request);
  expect(refused).toMatchObject({ outcome: 'proof-required', level: 1, proofWasValid: false });
  expect(refused.outcome === 'proof-required' && refused.challenge.parameters.data).toEqual({ pollId: sessionId, level: 1 });
  expect(await castVote({ ...second.request, proof: Buffer.from('{}').toString('base64') })).toMatchObject({ outcome: 'invalid-proof' });
  expect(await castVote({ ...second.request, proof: '%%%' })).toEqual({ outcome: 'invalid-proof' });
  expect(await voteLedger.readCounts(sessionId)).toEqual(new Map([[logoIds[0], 1]]));
});

it('answers that a closed poll takes no vote, and writes nothing', async () => {
  const { sessionId, logoIds } = await createPoll();
  await recordVotingState(sessionId, true);
  const closed = ballot(sessionId, logoIds[0]!);
  expect(await castVote(closed.request)).toEqual({ outcome: 'voting-closed' });
  expect(await voteLedger.readCounts(sessionId)).toEqual(new Map());
});
