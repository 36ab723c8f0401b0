import type { SessionView } from '@logovote/contracts';

import { pagePollReader } from '../src/page-poll';

const poll: SessionView = { sessionId: 'AAAAAAAAAAAAAAAA', logos: [], totalVotes: 3 };

describe("the page's copy of its poll", () => {
  it('answers the first read of that poll only', () => {
    const reader = pagePollReader(
      () => poll,
      () => 10,
    );
    expect(reader('BBBBBBBBBBBBBBBB')).toBeUndefined();
    expect(reader(poll.sessionId)).toBe(poll);
    expect(reader(poll.sessionId)).toBeUndefined();
  });

  it('is not used once a minute has passed since the page started (its counts have aged)', () => {
    const reader = pagePollReader(
      () => poll,
      () => 60_001,
    );
    expect(reader(poll.sessionId)).toBeUndefined();
  });

  it('answers nothing when the page holds no poll', () => {
    expect(
      pagePollReader(
        () => undefined,
        () => 0,
      )(poll.sessionId),
    ).toBeUndefined();
  });
});
