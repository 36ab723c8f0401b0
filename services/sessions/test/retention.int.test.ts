import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import request from 'supertest';
import {
  PollModel,
  PollSearchTermModel,
  VoterSeatModel,
  hasVoteData,
  purgeVotesOfDeletedPolls,
  recordNotifyActivity,
  recordPollDeleting,
  readPollStatus,
} from '@logovote/models';
import { storedModel } from '@logovote/models/test-support';
import { DAY_MS, MINUTE_MS } from '@logovote/contracts';
import { runInBackground } from '@logovote/service-kit';
import { png } from '../../../packages/media-pipeline/test/fixtures';
import { backdatePoll, objectNames, silentLogger } from '../../../tests/support/integration';
import { loadConfig } from '../src/config';
import { deletePoll } from '../src/polls/delete-poll';
import { startRetentionSweep, sweepPolls } from '../src/polls/retention';
import { createdSession, insertVotes, sessionsTestbed } from './support';

const bed = sessionsTestbed('retention');

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const pollExists = async (id: string) => (await PollModel.countDocuments({ _id: id })) > 0;
const pollStatuses = () => PollModel.db.collection('poll_status');
/** Turns a created poll's status back to 'creating' since `since`, as a creation that stopped before its last step left it. */
const stopCreation = (id: string, since: Date) =>
  pollStatuses().updateMany({ key: id } as never, { $set: { state: 'creating', at: since } });

describe('retention', () => {
  afterEach(async () => {
    await Promise.all([PollModel.deleteMany({}), pollStatuses().deleteMany({}), VoterSeatModel.deleteMany({})]);
    await bed.store.client.removeObjects(bed.store.bucket, await objectNames(bed.store));
  });

  it('reads the period in days, 30 by default, fractions allowed', () => {
    const base = { S3_ACCESS_KEY: 'key', S3_SECRET_KEY: 'secret-key', CSRF_SECRET: 'x'.repeat(32), IP_HASH_SALT: 'y'.repeat(32) };
    expect(loadConfig(base)).toMatchObject({ RETENTION_DAYS: 30, RETENTION_SWEEP_INTERVAL_MS: 3_600_000 });
    expect(loadConfig({ ...base, RETENTION_DAYS: '0.5', RETENTION_SWEEP_INTERVAL_MS: '1000' })).toMatchObject({
      RETENTION_DAYS: 0.5,
      RETENTION_SWEEP_INTERVAL_MS: 1000,
    });
  });

  it('with a short period, the running sweep deletes an inactive poll with its votes and images', async () => {
    const idle = await createdSession(bed.server, [
      ['a.png', await png()],
      ['b.png', await png(16, 16)],
    ]);
    await insertVotes(idle.sessionId, [idle.logos[0]!.id]);
    const sweep = startRetentionSweep({ store: bed.store, logger: silentLogger, retentionMs: 1500, intervalMs: 100 });
    // A poll that keeps being voted on stays, however long the idle one's deletion takes on a loaded machine.
    const busy = await createdSession(bed.server, [['c.png', await png()]]);
    const voting = runInBackground('vote on the busy poll', () => insertVotes(busy.sessionId, [busy.logos[0]!.id]), 200, silentLogger);
    try {
      await until(async () => !(await pollExists(idle.sessionId)), 'the idle poll is swept');
      expect(await VoterSeatModel.countDocuments({ pollId: idle.sessionId })).toBe(0);
      const names = await objectNames(bed.store);
      for (const logo of idle.logos) expect(names).not.toContain(logo.filename);
      expect(names).toContain(busy.logos[0]!.filename);
      expect(await pollExists(busy.sessionId)).toBe(true);
      await voting.stop();
      await until(async () => !(await pollExists(busy.sessionId)), 'the second poll is swept once idle too');
    } finally {
      await voting.stop();
      await sweep.stop();
    }
  });

  it('keeps polls active within the period and deletes those idle for longer (30 days)', async () => {
    const recent = await createdSession(bed.server, [['a.png', await png()]]);
    const stale = await createdSession(bed.server, [['b.png', await png()]]);
    await backdatePoll(recent.sessionId, new Date(Date.now() - 29 * DAY_MS));
    await backdatePoll(stale.sessionId, new Date(Date.now() - 31 * DAY_MS));
    const deleted = await sweepPolls({ store: bed.store, logger: silentLogger, retentionMs: 30 * DAY_MS });
    expect(deleted).toEqual([stale.sessionId]);
    expect(await pollExists(recent.sessionId)).toBe(true);
    expect(await objectNames(bed.store)).toEqual([recent.logos[0]!.filename]);
  });

  it('keeps an old poll whose votes or e-mails are recent, and copies that activity onto it', async () => {
    const voted = await createdSession(bed.server, [['a.png', await png()]]);
    const mailed = await createdSession(bed.server, [['b.png', await png()]]);
    for (const poll of [voted, mailed]) {
      await backdatePoll(poll.sessionId, new Date(Date.now() - 31 * DAY_MS));
    }
    // Recorded by the votes and notify services in their own collections.
    await insertVotes(voted.sessionId, [voted.logos[0]!.id]);
    await recordNotifyActivity(mailed.sessionId);

    expect(await sweepPolls({ store: bed.store, logger: silentLogger, retentionMs: 30 * DAY_MS })).toEqual([]);
    for (const poll of [voted, mailed]) {
      expect((await readPollStatus(poll.sessionId)).lastActivityAt.getTime()).toBeGreaterThan(Date.now() - DAY_MS);
    }
  });

  it('finishes a deletion and a creation that a stopped process left halfway', async () => {
    const interrupted = await createdSession(bed.server, [['a.png', await png()]]);
    // A deletion that stopped after marking the poll (its votes and image still there).
    await recordPollDeleting(interrupted.sessionId);
    await insertVotes(interrupted.sessionId, [interrupted.logos[0]!.id]);
    // A creation that stopped after storing an image, 20 minutes ago.
    const abandoned = await createdSession(bed.server, [['b.png', await png()]]);
    await stopCreation(abandoned.sessionId, new Date(Date.now() - 20 * MINUTE_MS));
    // A creation in progress right now is left alone.
    const inProgress = await createdSession(bed.server, [['c.png', await png()]]);
    await stopCreation(inProgress.sessionId, new Date());

    const deleted = await sweepPolls({ store: bed.store, logger: silentLogger, retentionMs: 30 * DAY_MS });
    expect(deleted.sort()).toEqual([interrupted.sessionId, abandoned.sessionId].sort());
    expect(await VoterSeatModel.countDocuments({ pollId: interrupted.sessionId })).toBe(0);
    expect(await objectNames(bed.store)).toEqual([inProgress.logos[0]!.filename]);
    expect(await pollExists(inProgress.sessionId)).toBe(true);
  });

  it('with the votes service away, a deletion leaves the poll hidden, and the sweep finishes it once it is back', async () => {
    const poll = await createdSession(bed.server, [['a.png', await png()]]);
    await insertVotes(poll.sessionId, [poll.logos[0]!.id]);
    await bed.votesPurge.stop();
    try {
      expect(await deletePoll(bed.store, poll.sessionId, { waitMs: 300 })).toEqual({ logos: 1, votes: 1, objects: 1 });
      expect((await readPollStatus(poll.sessionId)).state).toBe('deleting');
      expect((await request(bed.server).get(`/api/sessions/${poll.sessionId}`)).status).toBe(404);
      // For the admin it is gone already: a second delete finds nothing.
      expect(await deletePoll(bed.store, poll.sessionId)).toBeNull();
    } finally {
      bed.votesPurge = runInBackground('remove the votes of deleted polls', purgeVotesOfDeletedPolls, 100, silentLogger);
    }
    expect(await sweepPolls({ store: bed.store, logger: silentLogger, retentionMs: 30 * DAY_MS })).toEqual([poll.sessionId]);
    expect(await pollExists(poll.sessionId)).toBe(false);
    expect(await hasVoteData(poll.sessionId)).toBe(false);
  });

  it('keeps an orphan (a creation whose browser left while its logos were checked) like any unshared poll, then deletes it', async () => {
    // The browser sends the whole upload, then goes away before the answer ('Checking your logos…').
    const body = Buffer.concat([
      Buffer.from('--orphan\r\nContent-Disposition: form-data; name="feedbackPrompt"\r\n\r\nOrphan kite\r\n'),
      Buffer.from('--orphan\r\nContent-Disposition: form-data; name="logos"; filename="kite.png"\r\nContent-Type: image/png\r\n\r\n'),
      await png(),
      Buffer.from('\r\n--orphan--\r\n'),
    ]);
    const { port } = bed.server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=orphan\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.on('error', () => undefined);
    socket.write(body);
    // The browser goes away while its logos are checked and stored, once the server has the upload (its
    // record exists): the answer, with the links, is never read.
    await until(async () => (await PollModel.countDocuments({ feedbackPrompt: 'Orphan kite' })) === 1, 'the creation is under way', 60_000);
    socket.destroy();
    // The server finishes the creation: a poll nobody holds a link to, with no votes and no e-mail.
    const orphan = (await PollModel.findOne({ feedbackPrompt: 'Orphan kite' }).lean())!;
    await until(async () => (await readPollStatus(orphan._id)).state === 'active', 'the orphan is created', 60_000);
    const [image] = orphan.logos.map((logo) => logo.filename);
    expect(await objectNames(bed.store)).toContain(image);
    expect(await PollSearchTermModel.countDocuments({ pollId: orphan._id })).toBeGreaterThan(0);

    // Within the period it stays, as any poll nobody has voted in or asked the links of.
    await backdatePoll(orphan._id, new Date(Date.now() - 29 * DAY_MS));
    expect(await sweepPolls({ store: bed.store, logger: silentLogger, retentionMs: 30 * DAY_MS })).toEqual([]);
    // Past it, it goes with its image, its list entry and its search entries.
    await backdatePoll(orphan._id, new Date(Date.now() - 31 * DAY_MS));
    expect(await sweepPolls({ store: bed.store, logger: silentLogger, retentionMs: 30 * DAY_MS })).toEqual([orphan._id]);
    expect(await pollExists(orphan._id)).toBe(false);
    expect(await objectNames(bed.store)).not.toContain(image);
    expect(await PollSearchTermModel.countDocuments({ pollId: orphan._id })).toBe(0);
    // Its list slot is dropped: a tombstone is its newest version.
    expect(await storedModel('poll_list').countDocuments({ name: orphan._id, dropped: true })).toBe(1);
  }, 120_000);
});
