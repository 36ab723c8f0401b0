/**
 * Who is one voter, through the real gateway, with distinct loopback addresses as distinct networks
 * (docs/api/votes-and-notify.md, "Who is one voter"): people who share a device profile are separate
 * voters; one browser keeps its vote across networks; a private window is the same voter; and an
 * address that brings more voters than a household must pay a proof of work per extra voter, which
 * cannot be replayed or forged, and costs more the more voters the address already brought (no wall: an
 * office of any size votes, and a creator can say the poll is for one shared network).
 */
import { randomBytes } from 'node:crypto';
import type { CreatedSession, ProofRequired, SessionView } from '@logovote/contracts';
import { solveVoteChallenge } from '../support/proof-of-work';
import { testStack } from '../support/stack-env';
import { browserVoter, challengeIn, type BrowserVoter } from './support/browser-voter';
import { validImages } from './support/fixtures';
import { call, multipart, targetOf, type Answer } from './support/http';
import { createPollVia } from './support/polls';

// A proof of work costs a script a few tenths of a second of CPU by design, and some tests below pay 55 of them.
jest.setTimeout(300_000);

const { gatewayUrl } = testStack();
/** The votes service's default: the 6th new voter of an address in a poll must solve a challenge. */
const FREE_VOTERS_PER_ADDRESS = 5;
const PROOF_INVALID = 'The proof of work is not valid for this poll. Vote again to get a new challenge.';
const PROOF_SPENT = 'This proof of work was already used. Vote again to get a new challenge.';
const PROOF_LEVEL_FULL =
  'While this proof of work was being solved, other people on your network address took the seats it was for. Solve the new challenge and send the vote again with its solution in the X-Vote-Proof header.';
/** The votes service's defaults: voters per proof-of-work level, and the first voter who pays in a poll for a shared network. */
const VOTERS_PER_LEVEL = 25;
const SHARED_NETWORK_FREE_VOTERS = 50;

const newFingerprint = () => randomBytes(8).toString('hex');
const flipLastBit = (hex: string) => `${hex.slice(0, -1)}${(parseInt(hex.slice(-1), 16) ^ 1).toString(16)}`;

let images: Awaited<ReturnType<typeof validImages>>;
beforeAll(async () => {
  images = await validImages();
});

async function newPoll(logos = 2): Promise<CreatedSession & { logoIds: string[] }> {
  const poll = await createPollVia(targetOf(gatewayUrl, '127.0.3.1'), [images.png, images.jpeg, images.webp, images.png].slice(0, logos));
  return { ...poll, logoIds: poll.logos.map((logo) => logo.id) };
}

async function counts(sessionId: string): Promise<{ total: number; byLogo: number[] }> {
  const answer = await call(targetOf(gatewayUrl, '127.0.3.1'), { method: 'GET', path: `/api/sessions/${sessionId}` });
  const view = JSON.parse(answer.body) as SessionView;
  return { total: view.totalVotes, byLogo: view.logos.map((logo) => logo.voteCount) };
}

const ok = async (answer: Promise<{ status: number; body: string }>) => {
  const { status, body } = await answer;
  if (status !== 200) throw new Error(`expected 200, got ${status}: ${body}`);
};

describe('who is one voter', () => {
  it('keeps two people with the same fingerprint on different networks apart: each has its own vote and my-vote', async () => {
    const poll = await newPoll();
    const [logoA, logoB] = poll.logoIds as [string, string];
    const shared = newFingerprint();
    const personA = browserVoter(gatewayUrl, poll.sessionId, shared, '127.0.3.2');
    const personB = browserVoter(gatewayUrl, poll.sessionId, shared, '127.0.3.3');

    await ok(personA.vote(logoA));
    // B has not voted: no 'Vote submitted!' for someone else's vote.
    expect(await personB.myVote()).toEqual({ hasVoted: false, logoId: null });
    await ok(personB.vote(logoB));

    expect(await personA.myVote()).toEqual({ hasVoted: true, logoId: logoA });
    expect(await personB.myVote()).toEqual({ hasVoted: true, logoId: logoB });
    expect(await counts(poll.sessionId)).toEqual({ total: 2, byLogo: [1, 1] });
  });

  it('lets one browser keep its vote when its address changes, and change it from there', async () => {
    const poll = await newPoll(3);
    const [logoA, logoB, logoC] = poll.logoIds as [string, string, string];
    const phone = browserVoter(gatewayUrl, poll.sessionId, newFingerprint(), '127.0.3.4');
    await ok(phone.vote(logoA));

    phone.address = '127.0.3.5'; // Wi-Fi to mobile data
    expect(await phone.myVote()).toEqual({ hasVoted: true, logoId: logoA });
    await ok(phone.vote(logoB));
    phone.address = '127.0.3.6';
    await ok(phone.vote(logoC));

    expect(await phone.myVote()).toEqual({ hasVoted: true, logoId: logoC });
    expect(await counts(poll.sessionId)).toEqual({ total: 1, byLogo: [0, 0, 1] });
  });

  it('treats a private window (or cleared cookies) on the same address with the same fingerprint as the same voter', async () => {
    const poll = await newPoll();
    const [logoA, logoB] = poll.logoIds as [string, string];
    const browser = browserVoter(gatewayUrl, poll.sessionId, newFingerprint(), '127.0.3.7');
    await ok(browser.vote(logoA));

    const privateWindow = browser.privateWindow();
    expect(privateWindow.cookies.size).toBe(0);
    expect(await privateWindow.myVote()).toEqual({ hasVoted: true, logoId: logoA });
    // Voting again there changes the one vote; it adds none.
    await ok(privateWindow.vote(logoB));
    expect(await counts(poll.sessionId)).toEqual({ total: 1, byLogo: [0, 1] });
    expect(await browser.myVote()).toEqual({ hasVoted: true, logoId: logoB });
  });

  it('counts 1 000 voters drawn from 20 device profiles across 300 addresses exactly, merging none', async () => {
    const poll = await newPoll(4);
    const profiles = Array.from({ length: 20 }, newFingerprint);
    const addresses = Array.from({ length: 300 }, (_, index) => `127.4.${Math.floor(index / 200)}.${(index % 200) + 1}`);
    // Each address gets three or four people (a household, no proof of work), each on a profile no one
    // else there has: two people on one profile at one address without each other's cookies are, by the
    // rule, one voter (a private window), so the simulation leaves that case to the test above.
    const profilesAt = addresses.map(() => [...profiles].sort(() => Math.random() - 0.5));
    const voters = Array.from({ length: 1000 }, (_, index) => {
      const address = index % addresses.length;
      const profile = profilesAt[address]![Math.floor(index / addresses.length)]!;
      return {
        browser: browserVoter(gatewayUrl, poll.sessionId, profile, addresses[address]!),
        logoId: poll.logoIds[Math.floor(Math.random() * 4)]!,
      };
    });
    const pairs = new Set(voters.map(({ browser }) => `${browser.fingerprint}@${browser.address}`));
    expect(pairs.size).toBe(1000);

    // Twenty at a time, each as the voting page does it: my-vote (no vote yet), then the vote.
    const queue = [...voters];
    const seenBeforeVoting: boolean[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let voter = queue.shift(); voter; voter = queue.shift()) {
          seenBeforeVoting.push((await voter.browser.myVote()).hasVoted);
          await ok(voter.browser.vote(voter.logoId));
        }
      }),
    );

    const merged = seenBeforeVoting.filter(Boolean).length;
    expect(merged).toBe(0);
    const expected = poll.logoIds.map((logoId) => voters.filter((voter) => voter.logoId === logoId).length);
    expect(await counts(poll.sessionId)).toEqual({ total: 1000, byLogo: expected });
    // Every voter still sees its own vote.
    const sample = voters.filter((_, index) => index % 10 === 0);
    for (const voter of sample) expect(await voter.browser.myVote()).toEqual({ hasVoted: true, logoId: voter.logoId });
  });
});

describe('step-up proof of work', () => {
  /** A poll whose address already holds the voters that need no proof. */
  async function pollWithAHousehold(address: string) {
    const poll = await newPoll();
    for (let i = 0; i < FREE_VOTERS_PER_ADDRESS; i++) {
      await ok(browserVoter(gatewayUrl, poll.sessionId, newFingerprint(), address).vote(poll.logoIds[0]!));
    }
    return poll;
  }

  it(`asks the ${FREE_VOTERS_PER_ADDRESS + 1}th new voter of an address for a proof of work, and counts the vote once it is solved`, async () => {
    const address = '127.0.3.10';
    const poll = await pollWithAHousehold(address);
    const sixth = browserVoter(gatewayUrl, poll.sessionId, newFingerprint(), address);

    const asked = await sixth.vote(poll.logoIds[1]!);
    const challenge = challengeIn(asked);
    expect(JSON.parse(asked.body)).toMatchObject({ message: expect.stringContaining('proof-of-work challenge') });
    expect(challenge.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', data: { pollId: poll.sessionId } });
    expect(await sixth.myVote()).toEqual({ hasVoted: false, logoId: null });
    expect(await counts(poll.sessionId)).toEqual({ total: FREE_VOTERS_PER_ADDRESS, byLogo: [FREE_VOTERS_PER_ADDRESS, 0] });

    await ok(sixth.vote(poll.logoIds[1]!, await solveVoteChallenge(challenge)));
    expect(await sixth.myVote()).toEqual({ hasVoted: true, logoId: poll.logoIds[1] });
    expect(await counts(poll.sessionId)).toEqual({ total: FREE_VOTERS_PER_ADDRESS + 1, byLogo: [FREE_VOTERS_PER_ADDRESS, 1] });
    // A voter who has a seat changes the vote without any further work.
    await ok(sixth.vote(poll.logoIds[0]!));
    expect(await counts(poll.sessionId)).toEqual({ total: FREE_VOTERS_PER_ADDRESS + 1, byLogo: [FREE_VOTERS_PER_ADDRESS + 1, 0] });
  });

  it('refuses a replayed solution with 409 and a forged one with 400, counting neither', async () => {
    const address = '127.0.3.11';
    const poll = await pollWithAHousehold(address);
    const [logoA] = poll.logoIds as [string];
    const sixth = browserVoter(gatewayUrl, poll.sessionId, newFingerprint(), address);
    const proof = await solveVoteChallenge(challengeIn(await sixth.vote(logoA)));
    await ok(sixth.vote(logoA, proof));

    // Replayed: by another new voter of the same address, and by the same voter again.
    const seventh = browserVoter(gatewayUrl, poll.sessionId, newFingerprint(), address);
    for (const [voter, status] of [
      [seventh, 409],
      [sixth, 409],
    ] as const) {
      const replayed = await voter.vote(logoA, proof);
      expect([replayed.status, JSON.parse(replayed.body)]).toEqual([status, { message: PROOF_SPENT }]);
    }

    // Forged: wrong solutions, a challenge altered (cost, poll, signature), another poll's proof, and bytes that are no proof.
    const challenge = challengeIn(await seventh.vote(logoA));
    const { solution } = JSON.parse(Buffer.from(await solveVoteChallenge(challenge), 'base64').toString()) as {
      solution: { counter: number; derivedKey: string };
    };
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
    // A genuine solution, of a challenge for another poll.
    const otherPoll = await pollWithAHousehold('127.0.3.12');
    const elsewhere = browserVoter(gatewayUrl, otherPoll.sessionId, newFingerprint(), '127.0.3.12');
    const otherPollsProof = await solveVoteChallenge(challengeIn(await elsewhere.vote(otherPoll.logoIds[0]!)));
    const forgeries = [
      encode({ challenge, solution: { counter: solution.counter, derivedKey: randomBytes(32).toString('hex') } }),
      encode({ challenge, solution: { counter: solution.counter, derivedKey: flipLastBit(solution.derivedKey) } }),
      encode({ challenge: { ...challenge, parameters: { ...challenge.parameters, cost: 1 } }, solution }),
      encode({ challenge: { ...challenge, parameters: { ...challenge.parameters, data: { pollId: otherPoll.sessionId } } }, solution }),
      encode({
        challenge: { ...challenge, parameters: { ...challenge.parameters, data: { pollId: poll.sessionId, level: 99 } } },
        solution,
      }),
      encode({ challenge: { ...challenge, signature: '0'.repeat(64) }, solution }),
      otherPollsProof,
      'not a proof at all',
      encode({ challenge: 'x', solution: 1 }),
    ];
    for (const forged of forgeries) {
      const answer = await seventh.vote(logoA, forged);
      expect(answer.status).toBe(400);
      expect(typeof (JSON.parse(answer.body) as { message: unknown }).message).toBe('string');
    }
    const wrong = await seventh.vote(logoA, forgeries[0]);
    expect(JSON.parse(wrong.body)).toEqual({ message: PROOF_INVALID });
    expect(await seventh.myVote()).toEqual({ hasVoted: false, logoId: null });
    expect((await counts(poll.sessionId)).total).toBe(FREE_VOTERS_PER_ADDRESS + 1);
    // The genuine solution of that challenge still counts.
    await ok(seventh.vote(logoA, await solveVoteChallenge(challenge)));
    expect((await counts(poll.sessionId)).total).toBe(FREE_VOTERS_PER_ADDRESS + 2);
  });

  it('lets exactly the free seats go to new voters racing from one address without proofs', async () => {
    const poll = await newPoll();
    const racers: BrowserVoter[] = Array.from({ length: 12 }, () =>
      browserVoter(gatewayUrl, poll.sessionId, newFingerprint(), '127.0.3.13'),
    );
    const answers = await Promise.all(racers.map((racer) => racer.vote(poll.logoIds[0]!)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([
      ...Array<number>(FREE_VOTERS_PER_ADDRESS).fill(200),
      ...Array<number>(12 - FREE_VOTERS_PER_ADDRESS).fill(428),
    ]);
    expect((await counts(poll.sessionId)).total).toBe(FREE_VOTERS_PER_ADDRESS);
  });
});

describe('a shared network is not a wall', () => {
  const proofRequiredIn = (answer: Answer) => {
    challengeIn(answer);
    return JSON.parse(answer.body) as ProofRequired;
  };

  it('asks the 51st and the 60th voter of one address for a proof of a higher level than the 7th, and counts every one once solved', async () => {
    const address = '127.0.0.120';
    const poll = await newPoll();
    const asked = new Map<number, ProofRequired>();
    for (let number = 1; number <= 60; number++) {
      const voter = browserVoter(gatewayUrl, poll.sessionId, newFingerprint(), address);
      const first = await voter.vote(poll.logoIds[number % 2]!);
      if (number <= FREE_VOTERS_PER_ADDRESS) {
        expect(first.status).toBe(200);
        continue;
      }
      const required = proofRequiredIn(first);
      asked.set(number, required);
      expect(required.challenge.parameters.data).toEqual({ pollId: poll.sessionId, level: required.level });
      await ok(voter.vote(poll.logoIds[number % 2]!, await solveVoteChallenge(required.challenge)));
    }
    const levelOf = (number: number) => asked.get(number)!.level;
    expect(levelOf(6)).toBe(1);
    expect(levelOf(7)).toBe(1);
    expect(levelOf(FREE_VOTERS_PER_ADDRESS + VOTERS_PER_LEVEL)).toBe(1);
    expect(levelOf(51)).toBeGreaterThan(levelOf(7));
    expect(levelOf(60)).toBeGreaterThan(levelOf(51));
    // The cost rises with the level.
    expect(asked.get(60)!.attempts).toBeGreaterThan(asked.get(51)!.attempts);
    expect(asked.get(51)!.attempts).toBeGreaterThan(asked.get(7)!.attempts);
    expect(await counts(poll.sessionId)).toEqual({ total: 60, byLogo: [30, 30] });
  });

  it('lets solved proofs racing for the last seats of their level take exactly those, and asks the others for the next level', async () => {
    const address = '127.0.0.121';
    const poll = await newPoll();
    for (let i = 0; i < FREE_VOTERS_PER_ADDRESS; i++) {
      await ok(browserVoter(gatewayUrl, poll.sessionId, newFingerprint(), address).vote(poll.logoIds[0]!));
    }
    // Five more people than the first level has seats each get a challenge of it, solve it, and vote at once.
    const racers = Array.from({ length: VOTERS_PER_LEVEL + 5 }, () => browserVoter(gatewayUrl, poll.sessionId, newFingerprint(), address));
    const proofs: string[] = [];
    for (const racer of racers) {
      const required = proofRequiredIn(await racer.vote(poll.logoIds[0]!));
      expect(required.level).toBe(1);
      proofs.push(await solveVoteChallenge(required.challenge));
    }
    const answers = await Promise.all(racers.map((racer, index) => racer.vote(poll.logoIds[0]!, proofs[index])));

    const seated = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(seated).toHaveLength(VOTERS_PER_LEVEL);
    expect(refused).toHaveLength(5);
    for (const answer of refused) {
      const required = proofRequiredIn(answer);
      expect(required.message).toBe(PROOF_LEVEL_FULL);
      expect(required.level).toBe(2);
    }
    expect(await counts(poll.sessionId)).toEqual({ total: FREE_VOTERS_PER_ADDRESS + VOTERS_PER_LEVEL, byLogo: [30, 0] });
    // Nobody refused has a vote; one of them solves the next level and is counted.
    const late = racers[answers.findIndex((answer) => answer.status !== 200)]!;
    expect(await late.myVote()).toEqual({ hasVoted: false, logoId: null });
    await ok(late.vote(poll.logoIds[1]!, await solveVoteChallenge(proofRequiredIn(refused[0]!).challenge)));
    expect(await counts(poll.sessionId)).toEqual({ total: FREE_VOTERS_PER_ADDRESS + VOTERS_PER_LEVEL + 1, byLogo: [30, 1] });
  });

  it('asks less of the voters of a poll created for a shared network: the first 50 of an address vote without a proof', async () => {
    const creator = targetOf(gatewayUrl, '127.0.0.122');
    const create = (sharedNetwork: string) => {
      const { body, contentType } = multipart([
        { name: 'sharedNetwork', data: sharedNetwork },
        ...[images.png, images.jpeg].map((data, index) => ({ name: 'logos', filename: `logo-${index}.png`, type: 'image/png', data })),
      ]);
      return call(creator, { method: 'POST', path: '/api/sessions', headers: { 'Content-Type': contentType }, body });
    };
    const refused = await create('maybe');
    expect([refused.status, JSON.parse(refused.body)]).toEqual([400, { message: 'sharedNetwork: sharedNetwork must be true or false' }]);

    const created = await create('true');
    expect(created.status).toBe(201);
    const poll = JSON.parse(created.body) as CreatedSession;
    const address = '127.0.0.123';
    const logoId = poll.logos[0]!.id;
    const voters = Array.from({ length: SHARED_NETWORK_FREE_VOTERS + 1 }, () =>
      browserVoter(gatewayUrl, poll.sessionId, newFingerprint(), address),
    );
    for (const voter of voters.slice(0, SHARED_NETWORK_FREE_VOTERS)) await ok(voter.vote(logoId));
    const last = voters[SHARED_NETWORK_FREE_VOTERS]!;
    const required = proofRequiredIn(await last.vote(logoId));
    // In a poll without the option this voter is asked for the second level (the test above).
    expect(required.level).toBe(1);
    await ok(last.vote(logoId, await solveVoteChallenge(required.challenge)));
    expect((await counts(poll.sessionId)).total).toBe(SHARED_NETWORK_FREE_VOTERS + 1);
  });
});
