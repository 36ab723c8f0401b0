/**
 * Channels (docs/channels.md) in the votes service: a voter counts for the channel of its first vote's
 * `via`, its changes move between logos within that channel, and the per-channel counts are exact under
 * concurrent voters.
 */
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { PollModel, VoterSeatModel, channelLedger, channelTally, voteLedger } from '@logovote/models';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { UNKNOWN_CHANNEL } from '../src/routes/votes';
import {
  TEST_CSRF_SECRET,
  TEST_IP_HASH_SALT,
  connectTestDatabase,
  createPoll,
  csrfHeaders,
  dropTestDatabase,
  newFingerprint,
  silentLogger,
  testDatabaseUri,
} from '../../../tests/support/integration';

jest.setTimeout(60_000);

const config = loadConfig({
  MONGODB_URI: testDatabaseUri('channels'),
  CSRF_SECRET: TEST_CSRF_SECRET,
  IP_HASH_SALT: TEST_IP_HASH_SALT,
});
let server: Server;

beforeAll(async () => {
  await connectTestDatabase(config.MONGODB_URI, [PollModel, VoterSeatModel]);
  server = createServer(buildApp({ logger: silentLogger, config }).callback());
});
afterAll(dropTestDatabase);

const CHANNELS = [
  { id: 'news0001', name: 'Newsletter' },
  { id: 'insta001', name: 'Instagram' },
];

/** A stored poll with the two channels above. */
async function pollWithChannels() {
  const poll = await createPoll({ logos: 3 });
  await PollModel.updateOne({ _id: poll.sessionId }, { $set: { channels: CHANNELS } });
  return poll;
}

interface Voter {
  fingerprint: string;
  ip: string;
}
let voterNumber = 0;
const newVoter = (): Voter => ({ fingerprint: newFingerprint(), ip: `10.${Math.floor(++voterNumber / 250)}.${voterNumber % 250}.9` });

function vote(sessionId: string, voter: Voter, logoId: string, via?: string) {
  return request(server)
    .post(`/api/sessions/${sessionId}/vote`)
    .set(csrfHeaders(sessionId))
    .set('X-Client-Fingerprint', voter.fingerprint)
    .set('X-Forwarded-For', voter.ip)
    .send(via === undefined ? { logoId } : { logoId, via });
}

const channelCounts = (sessionId: string, channelId: string) => channelLedger.readCounts(channelTally(sessionId, channelId));

describe('votes through a channel', () => {
  it("counts a voter's first vote in the channel of its via, and moves its changed votes within that channel", async () => {
    const { sessionId, logoIds } = await pollWithChannels();
    const [a, b, c] = logoIds as [string, string, string];
    const voter = newVoter();
    expect((await vote(sessionId, voter, a, 'news0001')).status).toBe(200);
    expect(await channelCounts(sessionId, 'news0001')).toEqual(new Map([[a, 1]]));

    // A later vote keeps the first channel, whatever link it came through.
    expect((await vote(sessionId, voter, b, 'insta001')).status).toBe(200);
    expect((await vote(sessionId, voter, c)).status).toBe(200);
    expect(await channelCounts(sessionId, 'news0001')).toEqual(new Map([[c, 1]]));
    expect(await channelCounts(sessionId, 'insta001')).toEqual(new Map());
    expect(await voteLedger.readCounts(sessionId)).toEqual(new Map([[c, 1]]));
    // What is kept of the voter's channel: its id on the seat.
    expect((await VoterSeatModel.find({ pollId: sessionId }).lean()).map((seat) => seat.channel)).toEqual(['news0001']);
  });

  it('leaves a voter of the plain link out of every channel, even when it votes again through one', async () => {
    const { sessionId, logoIds } = await pollWithChannels();
    const voter = newVoter();
    expect((await vote(sessionId, voter, logoIds[0]!)).status).toBe(200);
    expect((await vote(sessionId, voter, logoIds[1]!, 'insta001')).status).toBe(200);
    expect(await channelCounts(sessionId, 'insta001')).toEqual(new Map());
    expect(await voteLedger.readCounts(sessionId)).toEqual(new Map([[logoIds[1]!, 1]]));
  });

  it.each([
    ['an id of no channel of the poll', 'nope0001', UNKNOWN_CHANNEL],
    ['a malformed id', 'not a channel!', 'via: via must be a channel id of this poll'],
  ])('refuses a vote whose via is %s with a 400, writing nothing', async (_case, via, message) => {
    const { sessionId, logoIds } = await pollWithChannels();
    const answer = await vote(sessionId, newVoter(), logoIds[0]!, via);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message });
    expect(await voteLedger.readCounts(sessionId)).toEqual(new Map());
  });

  it('refuses a via on a poll without channels', async () => {
    const { sessionId, logoIds } = await createPoll();
    const answer = await vote(sessionId, newVoter(), logoIds[0]!, 'news0001');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: UNKNOWN_CHANNEL });
  });

  it('keeps every channel exact under concurrent first votes and changes', async () => {
    const { sessionId, logoIds } = await pollWithChannels();
    const [a, b, c] = logoIds as [string, string, string];
    const newsletter = Array.from({ length: 30 }, newVoter);
    const instagram = Array.from({ length: 20 }, newVoter);
    const direct = Array.from({ length: 10 }, newVoter);
    const first = await Promise.all([
      ...newsletter.map((voter) => vote(sessionId, voter, a, 'news0001')),
      ...instagram.map((voter) => vote(sessionId, voter, b, 'insta001')),
      ...direct.map((voter) => vote(sessionId, voter, c)),
    ]);
    expect(first.map((answer) => answer.status)).toEqual(first.map(() => 200));
    // Half of each channel changes its vote to c, each voter with two racing requests (its last vote wins: c).
    const changes = await Promise.all(
      [...newsletter.slice(0, 15), ...instagram.slice(0, 10)].flatMap((voter) => [vote(sessionId, voter, c), vote(sessionId, voter, c)]),
    );
    expect(changes.map((answer) => answer.status)).toEqual(changes.map(() => 200));
    await channelLedger.foldDue();

    expect(await channelCounts(sessionId, 'news0001')).toEqual(
      new Map([
        [a, 15],
        [c, 15],
      ]),
    );
    expect(await channelCounts(sessionId, 'insta001')).toEqual(
      new Map([
        [b, 10],
        [c, 10],
      ]),
    );
    expect(await voteLedger.readCounts(sessionId)).toEqual(
      new Map([
        [a, 15],
        [b, 10],
        [c, 35],
      ]),
    );
  });
});
