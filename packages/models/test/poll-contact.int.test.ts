/**
 * A poll's contact on the real store: every request for the links counts as activity, and the address a
 * send recorded stays while other requests for the same poll race with it.
 */
import { randomBytes } from 'node:crypto';
import { deletePollContact, hasPollContact, readPollContact, recordNotifyActivity } from '../src';
import { connectTestDatabase, dropTestDatabase, testDatabaseUri } from '../../../tests/support/integration';
import { storedModel } from './support';

jest.setTimeout(60_000);

beforeAll(() => connectTestDatabase(testDatabaseUri('poll_contacts')));
afterAll(() => dropTestDatabase());

const newPollId = () => randomBytes(9).toString('base64url');

it('has no contact until the links are asked for, then the newest activity and the address that received them', async () => {
  const pollId = newPollId();
  expect(await readPollContact(pollId)).toBeNull();
  expect(await hasPollContact(pollId)).toBe(false);

  const asked = new Date(Date.now() - 60_000);
  await recordNotifyActivity(pollId, undefined, asked);
  expect(await readPollContact(pollId)).toEqual({ lastActivityAt: asked });

  const sent = new Date();
  await recordNotifyActivity(pollId, 'creator@example.com', sent);
  expect(await readPollContact(pollId)).toEqual({ email: 'creator@example.com', lastActivityAt: sent });
});

it('keeps the address and counts every request while 20 requests race', async () => {
  const pollId = newPollId();
  await recordNotifyActivity(pollId, 'first@example.com');
  await Promise.all(Array.from({ length: 20 }, () => recordNotifyActivity(pollId)));
  expect((await readPollContact(pollId))?.email).toBe('first@example.com');
  // One version per request: none was lost to another.
  expect(await storedModel('poll_contacts').countDocuments({ owner: pollId })).toBe(21);
});

it('removes every version of a contact, once', async () => {
  const pollId = newPollId();
  await recordNotifyActivity(pollId, 'gone@example.com');
  await recordNotifyActivity(pollId);
  expect(await deletePollContact(pollId)).toBe(true);
  expect(await hasPollContact(pollId)).toBe(false);
  expect(await readPollContact(pollId)).toBeNull();
  expect(await deletePollContact(pollId)).toBe(false);
});
