import { SESSION_NOT_FOUND } from '@logovote/contracts';
import { HttpError } from '../src/errors';
import { pollOr404 } from '../src/poll-not-found';

const thrownBy = (action: () => unknown): unknown => {
  try {
    action();
  } catch (error: unknown) {
    return error;
  }
  throw new Error('nothing was thrown');
};

describe('pollOr404', () => {
  it('hands back the poll data access found', () => {
    const poll = { _id: 'abc' };
    expect(pollOr404(poll)).toBe(poll);
  });

  it("turns a poll not found into the spec's 404", () => {
    for (const found of [null, undefined]) {
      const error = thrownBy(() => pollOr404(found));
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ status: 404, message: SESSION_NOT_FOUND });
    }
  });

  it("answers the admin API's own message when given one", () => {
    expect(thrownBy(() => pollOr404(null, 'Poll not found'))).toMatchObject({ status: 404, message: 'Poll not found' });
  });
});
