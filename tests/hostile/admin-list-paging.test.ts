/**
 * The admin list (GET /api/admin/polls) pages past any number of deleted polls: after a wave of 350 polls
 * created and deleted through the admin API, its first page is full and X-Total-Count counts the polls the
 * pages hold (packages/models/src/poll-list.ts).
 */
import { randomBytes } from 'node:crypto';
import type { AdminPollList } from '@logovote/contracts';
import { PollModel, listPoll, recordPollActive, recordPollCreating } from '@logovote/models';
import { adminAuthorization, connectStackDatabase, disconnectStackDatabase } from '../support/admin';
import { testStack } from '../support/stack-env';
import { call, targetOf } from './support/http';

jest.setTimeout(300_000);

const { gatewayUrl } = testStack();
/** This file's own client addresses: the deletions go out from four at once. */
const ADMINS = ['127.0.0.150', '127.0.0.151', '127.0.0.152', '127.0.0.153'].map((address) => targetOf(gatewayUrl, address));
const KEPT = 21;
const DELETED = 350;
const PAGE = 20;

/** A poll stored as creation stores one (listed, then active); the list and its count are what is tested here. */
async function seedPoll(): Promise<string> {
  const pollId = randomBytes(12).toString('base64url');
  await recordPollCreating(pollId);
  await PollModel.create({ _id: pollId, logos: [] });
  await listPoll(pollId);
  await recordPollActive(pollId);
  return pollId;
}

async function listPage(path: string): Promise<{ polls: AdminPollList; total: number; next?: string }> {
  const answer = await call(ADMINS[0]!, { method: 'GET', path, headers: adminAuthorization() });
  expect([path, answer.status]).toEqual([path, 200]);
  const next = /<([^>]+)>;\s*rel="next"/.exec(answer.headers.link ?? '')?.[1];
  return { polls: JSON.parse(answer.body) as AdminPollList, total: Number(answer.headers['x-total-count']), ...(next ? { next } : {}) };
}

/** Every page, following each page's Link; the total the first page gave. */
async function wholeList(): Promise<{ ids: string[]; total: number; first: AdminPollList }> {
  const first = await listPage('/api/admin/polls');
  const ids = first.polls.map((poll) => poll.pollId);
  for (let path = first.next; path;) {
    const page = await listPage(path);
    ids.push(...page.polls.map((poll) => poll.pollId));
    path = page.next;
  }
  return { ids, total: first.total, first: first.polls };
}

beforeAll(connectStackDatabase);
afterAll(disconnectStackDatabase);

describe('the admin list after a wave of deleted polls', () => {
  it(`shows a full first page and the right total after ${DELETED} polls were created and deleted`, async () => {
    const kept: string[] = [];
    for (let index = 0; index < KEPT; index++) kept.push(await seedPoll());
    const wave: string[] = [];
    for (let index = 0; index < DELETED; index++) wave.push(await seedPoll());
    // Deleted through the admin API, four at a time.
    const queue = [...wave];
    await Promise.all(
      ADMINS.map(async (admin) => {
        for (let pollId = queue.shift(); pollId; pollId = queue.shift()) {
          const answer = await call(admin, { method: 'DELETE', path: `/api/admin/polls/${pollId}`, headers: adminAuthorization() });
          expect([pollId, answer.status]).toEqual([pollId, 200]);
        }
      }),
    );

    // Other test files may create or delete polls meanwhile: a walk whose total and pages disagree is walked again.
    let list = await wholeList();
    for (let attempt = 1; attempt < 3 && list.total !== list.ids.length; attempt++) list = await wholeList();
    expect(list.first).toHaveLength(PAGE);
    expect(list.total).toBe(list.ids.length);
    expect(new Set(list.ids).size).toBe(list.ids.length);
    for (const pollId of kept) expect([pollId, list.ids.filter((id) => id === pollId).length]).toEqual([pollId, 1]);
    const listed = new Set(list.ids);
    expect(wave.filter((pollId) => listed.has(pollId))).toEqual([]);
    // Newest first: the kept polls in reverse order of creation.
    expect(list.ids.filter((id) => kept.includes(id))).toEqual([...kept].reverse());

    for (const pollId of kept)
      expect((await call(ADMINS[0]!, { method: 'DELETE', path: `/api/admin/polls/${pollId}`, headers: adminAuthorization() })).status).toBe(
        200,
      );
  });
});
