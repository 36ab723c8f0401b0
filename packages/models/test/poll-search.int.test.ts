/**
 * The admin's search on the real store, with small caps so every path is taken: words read whole filter in
 * memory, a word in more polls than the cap is marked common and checked by key newest first, common words
 * alone are matched in the newest polls, and the answer says when more match.
 */
import { PollModel, PollSearchTermModel, indexPollForSearch, listPoll, recordPollActive, recordPollCreating, searchPolls } from '../src';
import { storedModel } from './support';
import { connectTestDatabase, dropTestDatabase, testDatabaseUri } from '../../../tests/support/integration';

jest.setTimeout(60_000);

beforeAll(async () => {
  await connectTestDatabase(testDatabaseUri('poll_search'), [PollSearchTermModel, PollModel, storedModel('poll_list')]);
  // Twelve polls, created and listed in order, all with "which logo"; every third a bakery; poll 7 alone has "zeppelin".
  for (let n = 0; n < 12; n++) {
    const poll = {
      _id: `poll${String(n).padStart(2, '0')}`,
      createdAt: new Date(Date.UTC(2026, 0, 1, n)),
      feedbackPrompt: `Which logo for ${n % 3 === 0 ? 'the bakery' : 'the café'}${n === 7 ? ' zeppelin' : ''}?`,
      logos: [{ id: `logo${n}`, filename: `logo${n}.png`, originalName: `mark${n}.png`, contentType: 'image/png', size: 100 }],
    };
    await recordPollCreating(poll._id);
    await PollModel.create(poll);
    await indexPollForSearch(poll);
    await listPoll(poll._id);
    await recordPollActive(poll._id);
  }
});
afterAll(() => dropTestDatabase());

const newestFirst = (...numbers: number[]) => numbers.map((n) => `poll${String(n).padStart(2, '0')}`);

it('answers every poll with every word, newest first, when each word is read whole', async () => {
  expect(await searchPolls('bakery which', { limit: 10, candidates: 100 })).toEqual({ pollIds: newestFirst(9, 6, 3, 0), more: false });
  expect(await searchPolls('zeppelin cafe', { limit: 10, candidates: 100 })).toEqual({ pollIds: newestFirst(7), more: false });
  expect(await searchPolls('zeppelin bakery', { limit: 10, candidates: 100 })).toEqual({ pollIds: [], more: false });
});

it('checks a word found in more polls than the cap by key, and still answers exactly the newest matches', async () => {
  // "which" has 12 entries, over the cap of 5: the bakeries (4, read whole) are checked against it by key.
  expect(await searchPolls('which bakery', { limit: 10, candidates: 5 })).toEqual({ pollIds: newestFirst(9, 6, 3, 0), more: false });
  expect(await searchPolls('which bakery', { limit: 2, candidates: 5 })).toEqual({ pollIds: newestFirst(9, 6), more: true });
  expect(await searchPolls('logo zeppelin', { limit: 10, candidates: 5 })).toEqual({ pollIds: newestFirst(7), more: false });
});

it('matches words over the cap alone in the newest polls', async () => {
  expect(await searchPolls('which logo', { limit: 3, candidates: 5 })).toEqual({ pollIds: newestFirst(11, 10, 9), more: true });
  expect(await searchPolls('which logo', { limit: 20, candidates: 5 })).toEqual({
    pollIds: newestFirst(11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
    more: false,
  });
  expect(await searchPolls('nothing', { limit: 10, candidates: 5 })).toEqual({ pollIds: [], more: false });
});
