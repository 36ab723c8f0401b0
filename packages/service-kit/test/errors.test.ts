import { isDependencyUnavailable } from '../src/errors';

/** A driver error as mongodb builds it: a name, a numeric code and FerretDB's message. */
const serverError = (code: number, message: string) => Object.assign(new Error(message), { name: 'MongoServerError', code });

describe('isDependencyUnavailable', () => {
  it("counts FerretDB's answers while its PostgreSQL is down as an unavailable database", () => {
    for (const message of [
      '[msg_insert.go:168] failed to connect to `user=logovote database=ferretdb`: dial error: dial tcp 127.0.0.1:5433: connect: connection refused',
      '[backend.go:109 postgresql.(*backend).Status] FATAL: terminating connection due to administrator command (SQLSTATE 57P01)',
      'FATAL: the database system is starting up (SQLSTATE 57P03)',
    ]) {
      expect(isDependencyUnavailable(serverError(1, message))).toBe(true);
    }
  });

  it('keeps other server errors as errors', () => {
    expect(isDependencyUnavailable(serverError(1, 'invalid document'))).toBe(false);
    expect(isDependencyUnavailable(serverError(11000, 'E11000 duplicate key error'))).toBe(false);
  });

  it("counts the driver's own connection failures, wherever they sit in the cause chain", () => {
    const selection = Object.assign(new Error('Server selection timed out'), { name: 'MongoServerSelectionError' });
    expect(isDependencyUnavailable(selection)).toBe(true);
    expect(isDependencyUnavailable(new Error('wrapped', { cause: selection }))).toBe(true);
  });
});
