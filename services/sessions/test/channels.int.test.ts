/**
 * Channels (docs/channels.md) in the sessions service: named at creation, answered in the session view,
 * counted per channel by GET /channels and in the CSV's Channel column, withheld like every count.
 */
import request from 'supertest';
import { parse } from 'csv-parse/sync';
import {
  CREATOR_ONLY,
  CREATOR_TOKEN_HEADER,
  ChannelResults,
  CreatedSession,
  MAX_CHANNEL_NAME_LENGTH,
  MAX_CHANNELS_PER_POLL,
  RESULTS_WITHHELD,
  SessionView,
} from '@logovote/contracts';
import { PollModel, channelLedger, channelTally, voterKeyOf } from '@logovote/models';
import { png, svg } from '../../../packages/media-pipeline/test/fixtures';
import { objectNames } from '../../../tests/support/integration';
import { sessionsTestbed, type Upload } from './support';
import { insertFirstVotes } from '@logovote/models/test-support';

const bed = sessionsTestbed('channels');

let logos: Upload[];
beforeAll(async () => {
  logos = [
    ['wordmark.png', await png()],
    ['monogram.svg', svg()],
  ];
});

/** POST /api/sessions with a `channels` field per name. */
function create(channels: string[], fields: Record<string, string> = {}): request.Test {
  let req = request(bed.server).post('/api/sessions');
  for (const [field, value] of Object.entries(fields)) req = req.field(field, value);
  for (const name of channels) req = req.field('channels', name);
  for (const [name, bytes] of logos) req = req.attach('logos', bytes, name);
  return req;
}

async function created(channels: string[], fields?: Record<string, string>) {
  const res = await create(channels, fields);
  if (res.status !== 201) throw new Error(`creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return CreatedSession.extend({ creatorToken: CreatedSession.shape.csrfToken }).parse(res.body);
}

let voters = 0;
/** First votes as the votes service writes them: the seat, the poll's revision and, for a channel, the channel's. */
async function insertVotes(pollId: string, votes: [logoId: string, channelId?: string][]): Promise<void> {
  const fingerprints = votes.map(() => `c${(voters += 1).toString(16).padStart(15, '0')}`);
  await insertFirstVotes(
    votes.map(([logoId], index) => ({ pollId, logoId, fingerprint: fingerprints[index]!, ipHash: fingerprints[index]!, seat: 0 })),
  );
  for (const [index, [logoId, channelId]] of votes.entries()) {
    if (!channelId) continue;
    const member = voterKeyOf(pollId, fingerprints[index]!, fingerprints[index]!);
    await channelLedger.append({ tally: channelTally(pollId, channelId), member, rev: 1, from: null, to: logoId });
  }
}

const channelResults = (sessionId: string, headers: Record<string, string> = {}) =>
  request(bed.server).get(`/api/sessions/${sessionId}/channels`).set(headers);
/** The creator's CSV (the export is the creator's only). */
const csvRows = async (session: { sessionId: string; creatorToken: string }): Promise<string[][]> =>
  parse(
    (await request(bed.server).get(`/api/sessions/${session.sessionId}/results.csv`).set(CREATOR_TOKEN_HEADER, session.creatorToken)).text,
    {
      bom: true,
    },
  );
const asCreator = (session: { creatorToken: string }) => ({ [CREATOR_TOKEN_HEADER]: session.creatorToken });

describe('channels at creation (POST /api/sessions, repeated channels)', () => {
  it('gives each named channel a short id, trimmed names in order, in the answer and in every session view', async () => {
    const session = await created(['  Newsletter ', 'Instagram', 'Team']);
    expect(session.channels?.map((channel) => channel.name)).toEqual(['Newsletter', 'Instagram', 'Team']);
    for (const channel of session.channels ?? []) expect(channel.id).toMatch(/^[A-Za-z0-9_-]{8}$/);
    const view = SessionView.parse((await request(bed.server).get(`/api/sessions/${session.sessionId}`)).body);
    expect(view.channels).toEqual(session.channels);
  });

  it('stores no channels when none are named, and the view has none', async () => {
    const session = await created([]);
    expect(session.channels).toBeUndefined();
    expect((await PollModel.findById(session.sessionId).lean())?.channels).toBeUndefined();
    expect((await request(bed.server).get(`/api/sessions/${session.sessionId}`)).body).not.toHaveProperty('channels');
  });

  const nine = Array.from({ length: MAX_CHANNELS_PER_POLL + 1 }, (_, index) => `Channel ${index}`);
  it.each([
    ['more than the limit', nine, 400, `channels: A poll can have at most ${MAX_CHANNELS_PER_POLL} channels`],
    ['far more than the limit', [...nine, 'x'], 400, `"channels" was sent more than ${MAX_CHANNELS_PER_POLL + 1} times`],
    ['two alike but for letter case', ['Team', 'team'], 400, 'channels: Each channel needs a different name'],
    ['an empty name', ['Team', '  '], 400, 'channels.1: The channel name must not be empty'],
    [
      'a name over the limit',
      ['n'.repeat(MAX_CHANNEL_NAME_LENGTH + 1)],
      400,
      `channels.0: The channel name must be at most ${MAX_CHANNEL_NAME_LENGTH} characters`,
    ],
    ['a name with a line break', ['two\nlines'], 400, 'channels.0: The channel name must be a single line'],
  ])('refuses %s with a clear message and stores nothing', async (_case, channels, status, message) => {
    const before = await PollModel.countDocuments();
    const objects = await objectNames(bed.store);
    const res = await create(channels);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ message });
    expect(await PollModel.countDocuments()).toBe(before);
    expect(await objectNames(bed.store)).toEqual(objects);
  });
});

describe('votes per channel', () => {
  it('answers each channel’s votes per logo and the plain link’s as the rest, and the CSV appends them with a Channel column', async () => {
    const session = await created(['Newsletter', 'Instagram']);
    const [newsletter, instagram] = session.channels!.map((channel) => channel.id) as [string, string];
    const [wordmark, monogram] = session.logos.map((logo) => logo.id) as [string, string];
    await insertVotes(session.sessionId, [
      [wordmark, newsletter],
      [wordmark, newsletter],
      [monogram, newsletter],
      [monogram, instagram],
      [monogram],
    ]);

    const res = await channelResults(session.sessionId, asCreator(session));
    expect(res.status).toBe(200);
    expect(ChannelResults.parse(res.body)).toEqual({
      channels: [
        {
          id: newsletter,
          name: 'Newsletter',
          logos: [
            { logoId: wordmark, votes: 2 },
            { logoId: monogram, votes: 1 },
          ],
          totalVotes: 3,
        },
        {
          id: instagram,
          name: 'Instagram',
          logos: [
            { logoId: wordmark, votes: 0 },
            { logoId: monogram, votes: 1 },
          ],
          totalVotes: 1,
        },
      ],
      direct: {
        logos: [
          { logoId: wordmark, votes: 0 },
          { logoId: monogram, votes: 1 },
        ],
        totalVotes: 1,
      },
    });

    expect(await csvRows(session)).toEqual([
      [
        'Logo',
        'Original file name',
        'Votes',
        'Percent of total votes',
        'Reason',
        'Reason date',
        'Logo name',
        'Channel',
        'Note',
        'Note date',
        'Theme',
      ],
      ['Logo A', 'monogram.svg', '3', '60', '', '', 'monogram', '', '', '', ''],
      ['Logo B', 'wordmark.png', '2', '40', '', '', 'wordmark', '', '', '', ''],
      // Per channel, ranked within it; each logo keeps its label from the whole poll.
      ['Logo B', 'wordmark.png', '2', '67', '', '', 'wordmark', 'Newsletter', '', '', ''],
      ['Logo A', 'monogram.svg', '1', '33', '', '', 'monogram', 'Newsletter', '', '', ''],
      ['Logo A', 'monogram.svg', '1', '100', '', '', 'monogram', 'Instagram', '', '', ''],
      ['Logo B', 'wordmark.png', '0', '0', '', '', 'wordmark', 'Instagram', '', '', ''],
      ['Logo A', 'monogram.svg', '1', '100', '', '', 'monogram', 'Other / direct link', '', '', ''],
      ['Logo B', 'wordmark.png', '0', '0', '', '', 'wordmark', 'Other / direct link', '', '', ''],
    ]);
  });

  it('keeps the seven columns of a poll without channels, then the notes and the theme', async () => {
    const session = await created([]);
    expect((await csvRows(session))[0]).toEqual([
      'Logo',
      'Original file name',
      'Votes',
      'Percent of total votes',
      'Reason',
      'Reason date',
      'Logo name',
      'Note',
      'Note date',
      'Theme',
    ]);
    expect(ChannelResults.parse((await channelResults(session.sessionId, asCreator(session))).body)).toEqual({
      channels: [],
      direct: { logos: session.logos.map((logo) => ({ logoId: logo.id, votes: 0 })), totalVotes: 0 },
    });
  });

  it('withholds the channel figures like the other counts until voting closes, but not from the creator', async () => {
    const session = await created(['Team'], { resultsVisibility: 'after-close' });
    await insertVotes(session.sessionId, [[session.logos[0]!.id, session.channels![0]!.id]]);
    const visitor = await channelResults(session.sessionId);
    expect(visitor.status).toBe(403);
    expect(visitor.body).toEqual({ message: RESULTS_WITHHELD.closed });
    const creator = await channelResults(session.sessionId, { [CREATOR_TOKEN_HEADER]: session.creatorToken });
    expect(creator.status).toBe(200);
    expect(ChannelResults.parse(creator.body).channels[0]!.totalVotes).toBe(1);
  });

  it('refuses them to anyone but the creator, voters of a poll shown to everyone included', async () => {
    const session = await created(['Team']);
    await insertVotes(session.sessionId, [[session.logos[0]!.id, session.channels![0]!.id]]);
    for (const headers of [{}, { [CREATOR_TOKEN_HEADER]: 'x'.repeat(43) }] as Record<string, string>[]) {
      const res = await channelResults(session.sessionId, headers);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: CREATOR_ONLY.channels });
    }
  });

  it('answers 404 for an unknown poll', async () => {
    expect((await channelResults('AAAAAAAAAAAAAAAA')).status).toBe(404);
  });
});
