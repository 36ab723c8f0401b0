/**
 * Closing a poll (docs/closing.md) against hostile callers, through the gateway: forged, stolen, malformed and
 * oversized creator tokens and ids all get a 4xx with a JSON message that reveals nothing internal; the poll's
 * state changes only for its creator; votes stay refused while it is closed.
 */
import { createHash } from 'node:crypto';
import type { CreatedSessionWithCreatorToken } from '@logovote/contracts';
import { CREATOR_TOKEN_REJECTED, SESSION_NOT_FOUND, VOTING_CLOSED } from '@logovote/contracts';
import { testStack } from '../support/stack-env';
import { validImages } from './support/fixtures';
import { INTERNAL_DETAILS, call, jsonMessage, targetOf, type Answer } from './support/http';
import { createPollVia, tokenFor } from './support/polls';

const { gatewayUrl, admin } = testStack();
/** Client addresses of this file's own, so the gateway's per-address rate limit counts them apart. */
const target = (index: number) => targetOf(gatewayUrl, `127.0.17.${1 + (index % 40)}`);

let poll: CreatedSessionWithCreatorToken;
let other: CreatedSessionWithCreatorToken;
let browser: { cookie: string; token: string };

beforeAll(async () => {
  const images = await validImages();
  poll = (await createPollVia(target(0), [images.png, images.jpeg])) as CreatedSessionWithCreatorToken;
  other = (await createPollVia(target(0), [images.webp, images.png])) as CreatedSessionWithCreatorToken;
  browser = await tokenFor(target(0), poll.sessionId);
});

let calls = 0;
function change(action: string, sessionId: string, headers: Record<string, string>): Promise<Answer> {
  return call(target((calls += 1)), { method: 'POST', path: `/api/sessions/${sessionId}/${action}`, headers });
}
const withCsrf = (creatorToken?: string): Record<string, string> => ({
  Cookie: browser.cookie,
  'X-CSRF-Token': browser.token,
  ...(creatorToken === undefined ? {} : { 'X-Creator-Token': creatorToken }),
});

function expectRefused(answer: Answer, status: number, message?: string): void {
  expect(answer.status).toBe(status);
  const said = jsonMessage(answer);
  expect(said).toBeDefined();
  if (message) expect(said).toBe(message);
  expect(answer.body).not.toMatch(INTERNAL_DETAILS);
}

async function votingClosed(sessionId: string): Promise<boolean> {
  const view = await call(target(0), { method: 'GET', path: `/api/sessions/${sessionId}` });
  return (JSON.parse(view.body) as { closed?: boolean }).closed === true;
}

describe('creator tokens that are not the poll creator’s', () => {
  it.each([
    ['no token', undefined],
    ['an empty token', ''],
    ['another poll’s token', () => other.creatorToken],
    ['the token with one character changed', () => `${poll.creatorToken.slice(0, -1)}${poll.creatorToken.endsWith('x') ? 'y' : 'x'}`],
    ['the token’s SHA-256 hex', () => createHash('sha256').update(poll.creatorToken).digest('hex')],
    ['a NoSQL operator', '{"$ne":null}'],
    ['a very long token', 'A'.repeat(6000)],
    ['a percent-encoded token', '%E2%98%83'.repeat(10)],
  ])('%s: 403, and voting stays open', async (_, token) => {
    const value = typeof token === 'function' ? token() : token;
    for (const action of ['close', 'reopen'])
      expectRefused(await change(action, poll.sessionId, withCsrf(value)), 403, CREATOR_TOKEN_REJECTED);
    await expect(votingClosed(poll.sessionId)).resolves.toBe(false);
  });

  it('the right creator token without the anti-forgery token or cookie: 403', async () => {
    expectRefused(await change('close', poll.sessionId, { 'X-Creator-Token': poll.creatorToken }), 403);
    expectRefused(await change('close', poll.sessionId, { 'X-Creator-Token': poll.creatorToken, 'X-CSRF-Token': browser.token }), 403);
    await expect(votingClosed(poll.sessionId)).resolves.toBe(false);
  });
});

describe('bad poll ids', () => {
  it.each([
    ['an unknown id', 'AAAAAAAAAAAAAAAA'],
    ['a malformed id', 'not-a-session'],
    ['an encoded operator', '%24where'],
    ['a traversal', '..%2F..%2Fadmin'],
    ['a very long id', 'A'.repeat(3000)],
  ])('%s: a 4xx with a JSON message', async (_, id) => {
    const answer = await change('close', id, withCsrf(poll.creatorToken));
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expectRefused(answer, answer.status);
  });

  it('a deleted poll, with the tokens its creator held: 404', async () => {
    const images = await validImages();
    const gone = (await createPollVia(target(4), [images.png, images.webp])) as CreatedSessionWithCreatorToken;
    const held = await tokenFor(target(4), gone.sessionId);
    const deleted = await call(target(4), {
      method: 'DELETE',
      path: `/api/admin/polls/${gone.sessionId}`,
      headers: { Authorization: `Basic ${Buffer.from(`${admin.user}:${admin.password}`).toString('base64')}` },
    });
    expect(deleted.status).toBe(200);
    const answer = await change('close', gone.sessionId, {
      Cookie: held.cookie,
      'X-CSRF-Token': held.token,
      'X-Creator-Token': gone.creatorToken,
    });
    expectRefused(answer, 404, SESSION_NOT_FOUND);
  });

  it('GET on the close path is not a way to close', async () => {
    const answer = await call(target(1), {
      method: 'GET',
      path: `/api/sessions/${poll.sessionId}/close`,
      headers: withCsrf(poll.creatorToken),
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    await expect(votingClosed(poll.sessionId)).resolves.toBe(false);
  });
});

describe('a closed poll', () => {
  it('refuses every vote, with the gateway passing the 409 and its message through', async () => {
    const closer = await tokenFor(target(2), other.sessionId);
    const closed = await change('close', other.sessionId, {
      Cookie: closer.cookie,
      'X-CSRF-Token': closer.token,
      'X-Creator-Token': other.creatorToken,
    });
    expect(closed.status).toBe(200);
    const voter = await tokenFor(target(3), other.sessionId);
    for (const logo of other.logos) {
      const answer = await call(target(3), {
        method: 'POST',
        path: `/api/sessions/${other.sessionId}/vote`,
        headers: {
          Cookie: voter.cookie,
          'X-CSRF-Token': voter.token,
          'X-Client-Fingerprint': '0123456789abcdef',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ logoId: logo.id }),
      });
      expectRefused(answer, 409, VOTING_CLOSED);
    }
  });
});
