/**
 * Faults and privacy on a private stack of real servers (scripts/lib/stack.ts, its own ports and data), so
 * stopping its servers never disturbs the shared test stack. Each fault: the user gets a clear JSON message
 * (the spec's, where it has one), nothing is lost or left half-written, and once the dependency is back the
 * same service processes answer again by themselves. Privacy: deleting a poll (by the admin or the retention
 * sweep) deletes its e-mail, fingerprints, address hashes and images, and no log holds an e-mail address or
 * a client's address. Scenarios run in order on the one stack.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import mongoose from 'mongoose';
import type { Browser } from 'playwright-core';
import { DAY_MS, Readiness, type CreatedSession } from '@logovote/contracts';
import { repoRoot } from '@logovote/devstack';
import { createObjectStore, type ObjectStore } from '@logovote/service-kit';
import { freePorts, startStack, type ServiceName, type Stack } from '../../scripts/lib/stack';
import { launchBrowser, screenshotPath } from '../support/browser';
import { TEST_STACK_LIMITS } from '../support/stack-env';
import { validImages } from '../hostile/support/fixtures';
import { call, multipart, parseAnswer, targetOf, type Answer, type HttpCall, type Target } from '../hostile/support/http';
import { createPollVia, tokenFor } from '../hostile/support/polls';

// Servers stop and start here; the browser waits on real pages.
jest.setTimeout(120_000);

const SERVICES: ServiceName[] = ['sessions', 'votes', 'media', 'notify'];
const GATEWAY_UNAVAILABLE = 'Service temporarily unavailable. Please try again shortly.';
const STORAGE_FAILED = 'Could not save the poll. Please try again.';
const SEND_FAILED = 'Failed to send email: the mail server did not accept it. Your poll and its links are still valid.';
/** An answer must come within this while a dependency is down: a clear error, not a hang. */
const OUTAGE_ANSWER_MS = 15_000;

const runDir = join(repoRoot, '.run', 'faults', String(process.pid));
let stack: Stack;
let db: mongoose.Connection;
let store: ObjectStore;
let images: Awaited<ReturnType<typeof validImages>>;
let user: Target;
/** Every e-mail address and client address the tests used: none may reach a log. */
const emailsUsed: string[] = [];
const clientAddressesUsed: string[] = [];

beforeAll(async () => {
  stack = await startStack({
    runDir,
    ports: await freePorts(),
    external: {},
    freshData: true,
    logLevel: 'info',
    env: TEST_STACK_LIMITS,
    log: () => undefined,
  });
  user = targetOf(stack.gatewayUrl, '127.0.0.1');
  db = await mongoose.createConnection(stack.mongoUri, { serverSelectionTimeoutMS: 3000 }).asPromise();
  const { endpoint, accessKey, secretKey, bucket, region } = stack.objectStore;
  store = createObjectStore({
    S3_ENDPOINT: endpoint,
    S3_ACCESS_KEY: accessKey,
    S3_SECRET_KEY: secretKey,
    S3_BUCKET: bucket,
    S3_REGION: region,
  });
  images = await validImages();
});

afterAll(async () => {
  await db?.close();
  await stack?.stop();
  // The logs stay for whoever reads a failure; the data goes.
  rmSync(join(runDir, 'data'), { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until `accept` holds (recovery takes the driver a moment); fails with the last value. */
async function eventually<T>(what: string, probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      last = await probe();
      if (accept(last)) return last;
    } catch (error: unknown) {
      lastError = error;
    }
    await sleep(250);
  }
  throw new Error(`${what}: not within ${timeoutMs} ms; last: ${JSON.stringify(last) ?? String(lastError)}`);
}

/** A request of the user's, answered within OUTAGE_ANSWER_MS or failed. */
const ask = (request: HttpCall) => call(user, request, OUTAGE_ANSWER_MS);
const get = (path: string) => ask({ method: 'GET', path });
const head = (path: string) => ask({ method: 'HEAD', path });
const adminAuthorization = () => `Basic ${Buffer.from(`${stack.secrets.adminUser}:${stack.secrets.adminPassword}`).toString('base64')}`;
const messageOf = (answer: Answer) => (JSON.parse(answer.body) as { message: string }).message;
const readiness = async (service: ServiceName) => {
  const answer = await get(`/api/ready/${service}`);
  return { status: answer.status, body: Readiness.parse(JSON.parse(answer.body)) };
};
const untilReady = (service: ServiceName) =>
  eventually(
    `${service} ready`,
    () => readiness(service),
    (ready) => ready.status === 200,
  );
const untilUnready = (service: ServiceName) =>
  eventually(
    `${service} unready`,
    () => readiness(service),
    (ready) => ready.status === 503,
  );

/** How often each service process has started: a recovery "by itself" leaves these unchanged. */
function serviceStarts(): Record<ServiceName, number> {
  return Object.fromEntries(
    SERVICES.map((service) => [
      service,
      (readFileSync(join(stack.logDir, `${service}.log`), 'utf8').match(/"msg":"listening"/g) ?? []).length,
    ]),
  ) as Record<ServiceName, number>;
}

async function createPoll(from: Target = user): Promise<CreatedSession> {
  return createPollVia(from, [images.png, images.jpeg]);
}

function uploadOf(marker: string) {
  return multipart([
    { name: 'feedbackPrompt', data: marker },
    { name: 'logos', filename: 'a.png', type: 'image/png', data: images.png },
    { name: 'logos', filename: 'b.jpg', type: 'image/jpeg', data: images.jpeg },
  ]);
}

/** Poll creation as the page sends it, marked by its feedback prompt. */
function postPoll(marker: string) {
  const { body, contentType } = uploadOf(marker);
  return ask({ method: 'POST', path: '/api/sessions', headers: { 'Content-Type': contentType }, body });
}

/** A browser on `from` that holds the poll's token: votes and notifies as the pages do. */
async function browserOn(poll: CreatedSession, from: Target = user) {
  const { cookie, token } = await tokenFor(from, poll.sessionId);
  const write = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(
      from,
      {
        method: 'POST',
        path: `/api/sessions/${poll.sessionId}/${path}`,
        headers: { 'Content-Type': 'application/json', Cookie: cookie, 'X-CSRF-Token': token, ...headers },
        body: JSON.stringify(body),
      },
      OUTAGE_ANSWER_MS,
    );
  return {
    vote: (fingerprint: string, logoId: string) => write('vote', { logoId }, { 'X-Client-Fingerprint': fingerprint }),
    notify: (email: string) => {
      emailsUsed.push(email);
      return write('notify', { email });
    },
  };
}

const newFingerprint = () => randomBytes(8).toString('hex');
const newEmail = () => `creator.${randomBytes(4).toString('hex')}@example.org`;
const fromAddress = (address: string) => {
  clientAddressesUsed.push(address);
  return targetOf(stack.gatewayUrl, address);
};

async function objectNames(): Promise<string[]> {
  const names: string[] = [];
  for await (const item of store.client.listObjectsV2(store.bucket, '', true)) if (item.name) names.push(item.name);
  return names.sort();
}
const pollsCollection = () =>
  db.collection<{ _id: string; feedbackPrompt?: string; createdAt: Date; logos: { filename: string }[] }>('polls');
/** The polls' statuses, a versioned value: the live version has the poll as `key`. */
const statusesCollection = () => db.collection<{ _id: string; key?: string; state: string; lastActivityAt: Date }>('poll_status');
/** The notify service's record of a poll's creator (the address the links went to), a versioned value: the live version has the poll as `key`. */
const contactsCollection = () => db.collection<{ _id: string; key?: string; email?: string; lastActivityAt: Date }>('poll_contacts');
/** Every object the stored polls point at: what the bucket must hold, no more. */
async function referencedObjects(): Promise<string[]> {
  const polls = await pollsCollection().find({}).toArray();
  return polls.flatMap((poll) => poll.logos.map((logo) => logo.filename)).sort();
}

describe('MinIO stopped', () => {
  let before: CreatedSession;
  let image: Answer;

  beforeAll(async () => {
    before = await createPoll();
    image = await get(`/api/logos/${before.logos[0]!.filename}`);
    expect(image.status).toBe(200);
    await stack.stopComponent('minio');
  });
  afterAll(() => stack.startComponent('minio'));

  it('makes the services that store images unready, and only those', async () => {
    await untilUnready('sessions');
    await untilUnready('media');
    expect((await readiness('sessions')).body.checks['object-store']).toEqual({ ok: false, error: 'unavailable' });
    expect((await readiness('votes')).status).toBe(200);
    expect((await readiness('notify')).status).toBe(200);
  });

  it('answers poll creation with the storage message, and leaves no poll behind', async () => {
    const marker = `minio-down-${randomBytes(4).toString('hex')}`;
    const answer = await postPoll(marker);
    expect(answer.status).toBe(503);
    expect(messageOf(answer)).toBe(STORAGE_FAILED);
    expect(await pollsCollection().countDocuments({ feedbackPrompt: marker })).toBe(0);
  });

  it("answers an image request with a clear 503, not a hang (GET and the admin page's HEAD)", async () => {
    const path = `/api/logos/${before.logos[0]!.filename}`;
    // The gateway may still answer from its one-second logo cache first.
    const answer = await eventually(
      'image refused',
      () => get(path),
      (image) => image.status !== 200,
      5000,
    );
    expect(answer.status).toBe(503);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(messageOf(answer)).toBe(GATEWAY_UNAVAILABLE);
    expect((await head(path)).status).toBe(503);
  });

  it('keeps everything that does not need images working: the poll, its votes', async () => {
    expect((await get(`/api/sessions/${before.sessionId}`)).status).toBe(200);
    const browser = await browserOn(before);
    expect((await browser.vote(newFingerprint(), before.logos[1]!.id)).status).toBe(200);
  });

  it('recovers by itself once MinIO is back: same processes, the same image, new polls, no orphaned object', async () => {
    const starts = serviceStarts();
    await stack.startComponent('minio');
    await untilReady('sessions');
    await untilReady('media');
    const again = await eventually(
      'image served',
      () => get(`/api/logos/${before.logos[0]!.filename}`),
      (answer) => answer.status === 200,
    );
    expect(again.body).toBe(image.body);
    await createPoll();
    expect(serviceStarts()).toEqual(starts);
    expect(await objectNames()).toEqual(await referencedObjects());
  });
});

describe('MinIO stopped in the middle of a poll creation', () => {
  afterAll(() => stack.startComponent('minio'));

  it('answers with the storage message; neither a poll nor an image is left', async () => {
    const objectsBefore = await objectNames();
    const marker = `minio-dies-${randomBytes(4).toString('hex')}`;
    const { body, contentType } = uploadOf(marker);
    const half = Math.floor(body.length / 2);
    const request = Buffer.concat([
      Buffer.from(
        `POST /api/sessions HTTP/1.1\r\nHost: logovote\r\nConnection: close\r\nContent-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n\r\n`,
      ),
      body.subarray(0, half),
    ]);
    // The upload has started (the gateway streams it to the service) when MinIO goes away; then the rest comes.
    const received: Buffer[] = [];
    const socket = connect({ host: user.host, port: user.port });
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    await new Promise<void>((resolve) => socket.write(request, () => resolve()));
    await sleep(300);
    await stack.stopComponent('minio');
    // Written without a half-close: nginx takes a client's FIN for a client that left, and answers nobody.
    socket.write(body.subarray(half));
    await closed;

    const answer = parseAnswer(Buffer.concat(received));
    expect(answer.status).toBe(503);
    expect(messageOf(answer)).toBe(STORAGE_FAILED);
    await stack.startComponent('minio');
    await untilReady('sessions');
    expect(await pollsCollection().countDocuments({ feedbackPrompt: marker })).toBe(0);
    expect(await objectNames()).toEqual(objectsBefore);
  });
});

/** While the database is away, every call that needs it answers a clear JSON 503 (reads, creation, the admin list). */
async function expectDatabaseOutageAnswers(poll: CreatedSession, fingerprint: string, marker: string): Promise<void> {
  const lookup = await get(`/api/sessions/${poll.sessionId}`);
  expect([lookup.status, messageOf(lookup)]).toEqual([503, GATEWAY_UNAVAILABLE]);
  const myVote = await ask({
    method: 'GET',
    path: `/api/sessions/${poll.sessionId}/my-vote`,
    headers: { 'X-Client-Fingerprint': fingerprint },
  });
  expect([myVote.status, messageOf(myVote)]).toEqual([503, GATEWAY_UNAVAILABLE]);
  const creation = await postPoll(marker);
  expect([creation.status, messageOf(creation)]).toEqual([503, STORAGE_FAILED]);
  const list = await ask({ method: 'GET', path: '/api/admin/polls', headers: { Authorization: adminAuthorization() } });
  expect([list.status, messageOf(list)]).toEqual([503, GATEWAY_UNAVAILABLE]);
}

describe('FerretDB stopped and brought back', () => {
  let poll: CreatedSession;
  let email: string;
  let starts: Record<ServiceName, number>;
  const fingerprints = [newFingerprint(), newFingerprint(), newFingerprint()];

  beforeAll(async () => {
    poll = await createPoll();
    const browser = await browserOn(poll);
    for (const [index, fingerprint] of fingerprints.entries()) {
      expect((await browser.vote(fingerprint, poll.logos[index % 2]!.id)).status).toBe(200);
    }
    email = newEmail();
    expect((await browser.notify(email)).status).toBe(200);
    starts = serviceStarts();
    await stack.stopComponent('ferretdb');
  });
  afterAll(() => stack.startComponent('ferretdb'));

  it('makes every service unready (the image service asks the database whether a logo may be shown)', async () => {
    for (const service of ['sessions', 'votes', 'notify', 'media'] as const) {
      const ready = await untilUnready(service);
      expect(ready.body.checks.mongodb).toEqual({ ok: false, error: 'unavailable' });
    }
  });

  it('answers every user call with a clear JSON message, not a hang', async () => {
    const browser = await browserOn(poll).catch(() => undefined);
    // Without the database there is no token to get: the session lookup itself is what fails.
    expect(browser).toBeUndefined();
    await expectDatabaseOutageAnswers(poll, fingerprints[0]!, 'database-down');
    // An image is served only once the database says its poll may be shown (not hidden pending review, not deleted).
    const logo = await get(`/api/logos/${poll.logos[0]!.filename}`);
    expect([logo.status, messageOf(logo)]).toEqual([503, GATEWAY_UNAVAILABLE]);
  });

  it('refuses a vote and an e-mail with the same message, once their anti-forgery check passes', async () => {
    await stack.startComponent('ferretdb');
    await untilReady('votes');
    const browser = await browserOn(poll);
    await stack.stopComponent('ferretdb');
    await untilUnready('votes');
    await untilUnready('notify');
    const vote = await browser.vote(newFingerprint(), poll.logos[0]!.id);
    expect([vote.status, messageOf(vote)]).toEqual([503, GATEWAY_UNAVAILABLE]);
    const notify = await browser.notify(newEmail());
    expect([notify.status, messageOf(notify)]).toEqual([503, GATEWAY_UNAVAILABLE]);
  });

  it('recovers by itself once FerretDB is back on the same data: same processes, nothing lost, nothing half-written', async () => {
    await stack.startComponent('ferretdb');
    for (const service of ['sessions', 'votes', 'notify'] as const) await untilReady(service);
    expect(serviceStarts()).toEqual(starts);

    const view = await tokenFor(user, poll.sessionId);
    expect(view.view.totalVotes).toBe(fingerprints.length);
    expect((await contactsCollection().findOne({ key: poll.sessionId }))?.email).toBe(email);
    // The creation refused during the outage left nothing: no half-created poll, no object.
    expect(await statusesCollection().countDocuments({ key: { $exists: true }, state: { $ne: 'active' } })).toBe(0);
    expect(await objectNames()).toEqual(await referencedObjects());

    const browser = await browserOn(poll);
    expect((await browser.vote(newFingerprint(), poll.logos[0]!.id)).status).toBe(200);
    expect((await tokenFor(user, poll.sessionId)).view.totalVotes).toBe(fingerprints.length + 1);
  });
});

describe('PostgreSQL stopped under a running FerretDB and brought back', () => {
  let poll: CreatedSession;
  let starts: Record<ServiceName, number>;
  let ferretdbStarts: number;
  const fingerprints = [newFingerprint(), newFingerprint()];
  /** spawnManaged heads the log with a line per start. */
  const startsOfFerretDB = () => (readFileSync(join(stack.logDir, 'ferretdb.log'), 'utf8').match(/^=== /gm) ?? []).length;

  beforeAll(async () => {
    poll = await createPoll();
    const browser = await browserOn(poll);
    for (const [index, fingerprint] of fingerprints.entries()) {
      expect((await browser.vote(fingerprint, poll.logos[index % 2]!.id)).status).toBe(200);
    }
    starts = serviceStarts();
    ferretdbStarts = startsOfFerretDB();
    await stack.stopComponent('postgres');
  });
  afterAll(() => stack.startComponent('postgres'));

  it('makes the services that use the database unready, and every user call a clear JSON 503', async () => {
    for (const service of ['sessions', 'votes', 'notify'] as const) {
      const ready = await untilUnready(service);
      expect(ready.body.checks.mongodb).toEqual({ ok: false, error: 'unavailable' });
    }
    await expectDatabaseOutageAnswers(poll, fingerprints[0]!, 'postgres-down');
  });

  it('recovers once PostgreSQL is back: same processes, FerretDB included, and nothing lost', async () => {
    await stack.startComponent('postgres');
    for (const service of ['sessions', 'votes', 'notify'] as const) await untilReady(service);
    expect(serviceStarts()).toEqual(starts);
    expect(startsOfFerretDB()).toBe(ferretdbStarts);
    expect((await tokenFor(user, poll.sessionId)).view.totalVotes).toBe(fingerprints.length);
    expect(await statusesCollection().countDocuments({ key: { $exists: true }, state: { $ne: 'active' } })).toBe(0);
    const browser = await browserOn(poll);
    expect((await browser.vote(newFingerprint(), poll.logos[0]!.id)).status).toBe(200);
    expect((await tokenFor(user, poll.sessionId)).view.totalVotes).toBe(fingerprints.length + 1);
  });
});

describe('one service killed behind the gateway', () => {
  let poll: CreatedSession;

  beforeAll(async () => {
    poll = await createPoll();
  });
  afterAll(async () => {
    await stack.startComponent('votes');
    await stack.startComponent('sessions');
  });

  it("votes down: voting gets the gateway's JSON 503 while the rest of the product keeps working", async () => {
    const browser = await browserOn(poll);
    await stack.stopComponent('votes');
    const vote = await browser.vote(newFingerprint(), poll.logos[0]!.id);
    expect([vote.status, messageOf(vote)]).toEqual([503, GATEWAY_UNAVAILABLE]);
    expect((await get('/api/health/votes')).status).toBe(503);
    expect((await get(`/api/sessions/${poll.sessionId}`)).status).toBe(200);
    expect((await get(`/api/logos/${poll.logos[0]!.filename}`)).status).toBe(200);
    await createPoll();

    await stack.startComponent('votes');
    expect((await browser.vote(newFingerprint(), poll.logos[0]!.id)).status).toBe(200);
  });

  it('sessions down: creation and lookup get the JSON 503; images and votes still work', async () => {
    const browser = await browserOn(poll);
    await stack.stopComponent('sessions');
    const creation = await postPoll('sessions-down');
    expect([creation.status, messageOf(creation)]).toEqual([503, GATEWAY_UNAVAILABLE]);
    const lookup = await get(`/api/sessions/${poll.sessionId}`);
    expect([lookup.status, messageOf(lookup)]).toEqual([503, GATEWAY_UNAVAILABLE]);
    expect((await get(`/api/logos/${poll.logos[1]!.filename}`)).status).toBe(200);
    expect((await browser.vote(newFingerprint(), poll.logos[1]!.id)).status).toBe(200);
    // The poll's pages still come, without the poll in their HTML: the browser asks for it and says what it hears.
    for (const route of ['vote', 'results']) {
      const page = await get(`/${route}/${poll.sessionId}`);
      expect(page.status).toBe(200);
      expect(page.body).toContain('<div id="root">');
      expect(/<template id="logovote-poll">([^<]*)<\/template>/.exec(page.body)?.[1]?.trim()).toBe('');
    }

    await stack.startComponent('sessions');
    expect((await tokenFor(user, poll.sessionId)).view.totalVotes).toBe(2);
  });
});

describe('the mail server down', () => {
  afterAll(() => stack.startComponent('maildev'));

  it("answers the e-mail step with the spec's fallback reason; the poll keeps its links and records no address", async () => {
    const poll = await createPoll();
    const browser = await browserOn(poll);
    await stack.stopComponent('maildev');
    const failed = await browser.notify(newEmail());
    expect([failed.status, messageOf(failed)]).toEqual([502, SEND_FAILED]);
    expect((await contactsCollection().findOne({ key: poll.sessionId }))?.email).toBeUndefined();

    await stack.startComponent('maildev');
    const email = newEmail();
    expect((await browser.notify(email)).status).toBe(200);
    expect((await contactsCollection().findOne({ key: poll.sessionId }))?.email).toBe(email);
  });
});

describe("one remote's server down", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
    await stack.startComponent('results');
  });

  it("shows the fallback in that area only, and 'Try again' brings it back once the remote is up", async () => {
    const poll = await createPoll();
    await stack.stopComponent('results');
    const page = await browser.newPage();
    await page.goto(`${stack.gatewayUrl}/results/${poll.sessionId}`);
    const fallback = page.locator('[data-remote-fallback="results"]');
    await fallback.waitFor({ timeout: 20_000 });
    await expect(fallback.innerText()).resolves.toContain('This part of LogoVote is temporarily unavailable.');
    await page.screenshot({ path: screenshotPath('remote-down-results-fallback'), fullPage: true });
    const landing = await browser.newPage();
    await landing.goto(`${stack.gatewayUrl}/`);
    await landing.waitForSelector('[data-remote="create"]', { timeout: 20_000 });
    const voting = await browser.newPage();
    await voting.goto(`${stack.gatewayUrl}/vote/${poll.sessionId}`);
    await voting.waitForSelector('[data-remote="vote"]', { timeout: 20_000 });

    await stack.startComponent('results');
    await fallback.getByRole('button', { name: 'Try again' }).click();
    await page.waitForSelector('[data-remote="results"]', { timeout: 20_000 });
    await page.getByRole('heading', { name: 'Voting Results' }).waitFor({ timeout: 20_000 });
  });
});

describe('privacy: a poll takes its personal data with it', () => {
  /** Every document of every collection, as text: where a deleted value must not be found. */
  async function everythingStored(): Promise<string> {
    const collections = await db.db!.listCollections().toArray();
    const dumps = await Promise.all(collections.map(async ({ name }) => JSON.stringify(await db.collection(name).find({}).toArray())));
    return dumps.join('\n');
  }

  /** A poll with two voters (their fingerprints and address hashes) and a creator's e-mail. */
  async function pollWithPersonalData() {
    const poll = await createPoll(fromAddress('127.0.0.171'));
    const fingerprints = [newFingerprint(), newFingerprint()];
    const addresses = ['127.0.0.172', '127.0.0.173'];
    for (const [index, address] of addresses.entries()) {
      const voter = await browserOn(poll, fromAddress(address));
      expect((await voter.vote(fingerprints[index]!, poll.logos[index]!.id)).status).toBe(200);
    }
    const email = newEmail();
    expect((await (await browserOn(poll, fromAddress('127.0.0.174'))).notify(email)).status).toBe(200);

    const votes = await db.collection<{ fingerprint: string; ipHash: string }>('voter_seats').find({ pollId: poll.sessionId }).toArray();
    expect(votes.map((vote) => vote.fingerprint).sort()).toEqual([...fingerprints].sort());
    // What is stored of an address is a keyed hash, never the address.
    for (const vote of votes) expect(vote.ipHash).toMatch(/^[0-9a-f]{64}$/);
    const stored = await everythingStored();
    for (const address of addresses) expect(stored).not.toContain(address);
    expect(stored).toContain(email);
    return { poll, email, fingerprints, ipHashes: votes.map((vote) => vote.ipHash) };
  }

  async function expectGone({ poll, email, fingerprints, ipHashes }: Awaited<ReturnType<typeof pollWithPersonalData>>) {
    expect(await pollsCollection().countDocuments({ _id: poll.sessionId })).toBe(0);
    expect(await db.collection('voter_seats').countDocuments({ pollId: poll.sessionId })).toBe(0);
    const stored = await everythingStored();
    for (const value of [email, ...fingerprints, ...ipHashes]) expect(stored).not.toContain(value);
    const objects = await objectNames();
    for (const logo of poll.logos) {
      expect(objects).not.toContain(logo.filename);
      await eventually(
        'image gone',
        () => get(`/api/logos/${logo.filename}`),
        (image) => image.status === 404,
        5000,
      );
    }
    expect((await get(`/api/sessions/${poll.sessionId}`)).status).toBe(404);
  }

  it("the admin's delete removes the poll, its votes (fingerprints, address hashes), the e-mail and the images", async () => {
    const data = await pollWithPersonalData();
    const answer = await ask({
      method: 'DELETE',
      path: `/api/admin/polls/${data.poll.sessionId}`,
      headers: { Authorization: adminAuthorization() },
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ pollId: data.poll.sessionId, deleted: { logos: 2, votes: 2, objects: 2 } });
    await expectGone(data);
  });

  it('the retention sweep removes a poll 30 days without activity with all of it, and keeps an active one', async () => {
    const expired = await pollWithPersonalData();
    const active = await createPoll();
    // Every record of its activity is 31 days old: the poll's own, its votes' and its e-mail's.
    const monthAgo = new Date(Date.now() - 31 * DAY_MS);
    const pollId = expired.poll.sessionId;
    // Folded first: a fold afterwards would write a new, recent tally step.
    await eventually(
      'votes folded',
      () => db.collection('vote_ledger').countDocuments({ tally: pollId, pending: true }),
      (pending) => pending === 0,
      20_000,
    );
    await pollsCollection().updateOne({ _id: pollId }, { $set: { createdAt: monthAgo } });
    await statusesCollection().updateMany({ key: pollId }, { $set: { lastActivityAt: monthAgo } });
    await contactsCollection().updateOne({ key: pollId }, { $set: { lastActivityAt: monthAgo } });
    for (const name of ['vote_ledger', 'vote_tallies']) await db.collection(name).updateMany({ tally: pollId }, { $set: { at: monthAgo } });
    // The sweep runs when the service starts (then hourly): a restart is the quickest way to see it.
    await stack.stopComponent('sessions');
    await stack.startComponent('sessions');
    await eventually(
      'swept',
      () => pollsCollection().countDocuments({ _id: expired.poll.sessionId }),
      (count) => count === 0,
    );
    await expectGone(expired);
    expect((await get(`/api/sessions/${active.sessionId}`)).status).toBe(200);
  });

  it('no log holds an e-mail address or the address of a client', () => {
    const logFiles = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        // MailDev stands in for the mail provider: receiving the addresses is its job.
        if (name.startsWith('maildev')) return [];
        return statSync(path).isDirectory() ? logFiles(path) : [path];
      });
    const files = logFiles(stack.logDir);
    expect(files.map((file) => file.slice(stack.logDir.length + 1)).sort()).toEqual(
      expect.arrayContaining(['sessions.log', 'votes.log', 'media.log', 'notify.log', 'nginx.log']),
    );
    expect(emailsUsed.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const found = [...emailsUsed, ...clientAddressesUsed].filter((value) => text.includes(value));
      expect({ file, found }).toEqual({ file, found: [] });
      // FerretDB's stack traces name Go modules as path@version (`.../wire/v2@v2.2.2`): no address.
      const emails = (text.match(/[\w.+-]+@[\w-]+\.[\w.-]+/g) ?? []).filter((match) => !/@v\d+(\.\d+)+$/.test(match));
      expect({ file, emails }).toEqual({ file, emails: [] });
    }
  });
});
