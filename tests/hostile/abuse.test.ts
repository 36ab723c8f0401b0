/**
 * Abuse through the gateway: stuffing a poll by rotating fingerprints from one address costs a proof of work
 * per voter past the fifth (rising with their number: tests/hostile/voters.test.ts), whatever
 * X-Forwarded-For the client writes; one browser is one vote however often and from wherever it
 * votes; a burst past the gateway's rate limit gets JSON 429s
 * and nothing else fails; the admin area stays closed without its credentials.
 */
import { randomBytes } from 'node:crypto';
import type { CreatedSession } from '@logovote/contracts';
import { testStack } from '../support/stack-env';
import { validImages } from './support/fixtures';
import { call, targetOf, type Target } from './support/http';
import { createPollVia, tokenFor } from './support/polls';
import { browserVoter, challengeIn } from './support/browser-voter';
import { solveVoteChallenge } from '../support/proof-of-work';

// A script pays a proof of work (a few tenths of a second of CPU) for each voter past the fifth below.
jest.setTimeout(120_000);

const { gatewayUrl, admin } = testStack();
const STUFFED_VOTERS = 12;
/** New voters of one address in one poll who need no proof of work (the votes service's default). */
const FREE_VOTERS_PER_ADDRESS = 5;

const fingerprint = () => randomBytes(8).toString('hex');
const someAddress = () => Array.from(randomBytes(4)).join('.');

let images: Awaited<ReturnType<typeof validImages>>;
beforeAll(async () => {
  images = await validImages();
});

/** A browser on one address: its anti-forgery cookie and token for the poll. */
async function voterOn(target: Target, poll: CreatedSession) {
  const { cookie, token } = await tokenFor(target, poll.sessionId);
  return (fp: string, logoId: string, extraHeaders: Record<string, string> = {}) =>
    call(target, {
      method: 'POST',
      path: `/api/sessions/${poll.sessionId}/vote`,
      headers: { 'Content-Type': 'application/json', Cookie: cookie, 'X-CSRF-Token': token, 'X-Client-Fingerprint': fp, ...extraHeaders },
      body: JSON.stringify({ logoId }),
    });
}

const totalVotes = async (target: Target, sessionId: string) => (await tokenFor(target, sessionId)).view;

describe('ballot stuffing', () => {
  it('makes rotating fingerprints from one address pay a proof of work per voter past the fifth, even with forged X-Forwarded-For', async () => {
    const stuffer = targetOf(gatewayUrl, '127.0.0.91');
    const poll = await createPollVia(stuffer, [images.png, images.jpeg]);
    const vote = await voterOn(stuffer, poll);
    const [logoA, logoB] = poll.logos.map((logo) => logo.id) as [string, string];
    const fingerprints = Array.from({ length: STUFFED_VOTERS }, fingerprint);

    const statuses: number[] = [];
    let proofsSolved = 0;
    for (const fp of fingerprints) {
      // Each request claims to come from somewhere else; the services read only the address the gateway saw.
      const claims = () => ({ 'X-Forwarded-For': someAddress(), 'X-Real-IP': someAddress(), Forwarded: `for=${someAddress()}` });
      let answer = await vote(fp, logoA, claims());
      // Past a household's worth of voters, each new one costs a proof of work (tests/hostile/voters.test.ts); the script pays it.
      if (answer.status === 428) {
        proofsSolved++;
        answer = await vote(fp, logoA, { ...claims(), 'X-Vote-Proof': await solveVoteChallenge(challengeIn(answer)) });
      }
      statuses.push(answer.status);
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(proofsSolved).toBe(STUFFED_VOTERS - FREE_VOTERS_PER_ADDRESS);
    expect((await totalVotes(stuffer, poll.sessionId)).totalVotes).toBe(STUFFED_VOTERS);

    // Someone who already voted changes the vote without any further work...
    expect((await vote(fingerprints[0]!, logoB)).status).toBe(200);
    // ...and people on other addresses still vote.
    const neighbour = await voterOn(targetOf(gatewayUrl, '127.0.0.92'), poll);
    expect((await neighbour(fingerprint(), logoB)).status).toBe(200);

    const view = await totalVotes(stuffer, poll.sessionId);
    expect(view.totalVotes).toBe(STUFFED_VOTERS + 1);
    expect(view.logos.map((logo) => logo.voteCount)).toEqual([STUFFED_VOTERS - 1, 2]);
  });

  it('counts one browser once, however often, however fast and from however many addresses it votes', async () => {
    const home = targetOf(gatewayUrl, '127.0.0.93');
    const poll = await createPollVia(home, [images.png, images.webp, images.jpeg]);
    const logoIds = poll.logos.map((logo) => logo.id);
    const browser = browserVoter(gatewayUrl, poll.sessionId, fingerprint(), '127.0.0.93');
    expect((await browser.vote(logoIds[0]!)).status).toBe(200);
    const places = [93, 94, 95, 96, 97].map((last) => browser.at(`127.0.0.${last}`));
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => places[i % places.length]!.vote(logoIds[i % logoIds.length]!)));
    expect(answers.map((answer) => answer.status).every((status) => status === 200)).toBe(true);

    const view = await totalVotes(home, poll.sessionId);
    expect(view.totalVotes).toBe(1);
    expect(view.logos.reduce((sum, logo) => sum + logo.voteCount, 0)).toBe(1);
  });
});

describe('the gateway rate limit', () => {
  it('answers a burst of API calls from one address with JSON 429s past the limit, and nothing fails behind them', async () => {
    const burst = targetOf(gatewayUrl, '127.0.0.98');
    const poll = await createPollVia(targetOf(gatewayUrl, '127.0.0.99'), [images.png, images.jpeg]);
    const answers = await Promise.all(
      Array.from({ length: 400 }, () =>
        call(burst, { method: 'GET', path: `/api/sessions/${poll.sessionId}/my-vote`, headers: { 'X-Client-Fingerprint': fingerprint() } }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    const limited = answers.filter((answer) => answer.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    for (const answer of limited) {
      expect(JSON.parse(answer.body)).toEqual({ message: 'Too many requests. Please slow down and try again in a moment.' });
      expect(answer.headers['retry-after']).toBe('1');
    }
    for (const answer of answers.filter((a) => a.status === 200))
      expect(JSON.parse(answer.body)).toEqual({ hasVoted: false, logoId: null });
    // The limit refills: the same address is served again a moment later.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await call(burst, { method: 'GET', path: `/api/sessions/${poll.sessionId}` })).status).toBe(200);
  });
});

describe('the admin area', () => {
  it.each([
    ['GET', '/admin/polls'],
    ['GET', '/remotes/admin/mf-manifest.json'],
    ['GET', '/remotes/admin/remoteEntry.js'],
    ['GET', '/api/admin/polls'],
    ['DELETE', '/api/admin/polls/{id}'],
  ])('keeps %s %s closed without the credentials, and with wrong ones', async (method, path) => {
    const target = targetOf(gatewayUrl, '127.0.0.100');
    const poll = await createPollVia(target, [images.png, images.jpeg]);
    const url = path.replace('{id}', poll.sessionId);
    for (const headers of [
      {} as Record<string, string>,
      { Authorization: `Basic ${Buffer.from(`${admin.user}:not-the-password`).toString('base64')}` },
    ]) {
      const answer = await call(target, { method, path: url, headers });
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toBe('Basic realm="LogoVote admin"');
    }
    // The poll is still there.
    expect((await call(target, { method: 'GET', path: `/api/sessions/${poll.sessionId}` })).status).toBe(200);
  });
});
