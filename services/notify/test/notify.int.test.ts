import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { mailCatcherClient } from '@logovote/devstack';
import { CSRF_REJECTED, type ObjectStore } from '@logovote/service-kit';
import { CREATOR_TOKEN_HEADER, CREATOR_TOKEN_REJECTED, DAY_MS } from '@logovote/contracts';
import {
  PollModel,
  hasPollContact,
  hashCreatorToken,
  newCreatorToken,
  readPollContact,
  recordPollDeleting,
  readPollStatus,
  recordPollActive,
  recordPollCreating,
} from '@logovote/models';
import { testStack } from '../../../tests/support/stack-env';
// The fixtures the votes tests use for polls, tokens and databases (see the report: to move to tests/support).
import {
  TEST_CSRF_SECRET,
  connectTestDatabase,
  createPoll,
  csrfHeaders,
  dropTestDatabase,
  isolatedStore,
  newSessionId,
  removeBucket,
  silentLogger,
  storeSettings,
  testDatabaseUri,
} from '../../../tests/support/integration';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createMailer, type Mailer } from '../src/mailer';
import { purgeNotifyDataOfDeletedPolls } from '../src/poll-data';
import { pollEmailsBucket } from '../src/send-limit';
import { storedModel } from '@logovote/models/test-support';

const RateTicketModel = storedModel('rate_tickets');

// Requests against FerretDB on a shared machine: more than jest's 5 s default.
jest.setTimeout(30_000);

const stack = testStack();
const mail = mailCatcherClient(stack.mailApiUrl);
const config = loadConfig({
  MONGODB_URI: testDatabaseUri('notify'),
  CSRF_SECRET: TEST_CSRF_SECRET,
  SMTP_URL: stack.smtpUrl,
  PUBLIC_ORIGIN: 'https://logovote.example/',
  NOTIFY_EMAILS_PER_POLL_PER_HOUR: '2',
  // The tests' own bucket (isolatedStore) replaces the configured one.
  ...storeSettings('notify-logos'),
});
let mailer: Mailer;
let store: ObjectStore;
let server: Server;

beforeAll(async () => {
  await connectTestDatabase(config.MONGODB_URI, [PollModel]);
  mailer = createMailer(config);
  store = await isolatedStore('notify');
  server = createServer(buildApp({ logger: silentLogger, mailer, store, config }).callback());
});
afterAll(async () => {
  mailer.close();
  await removeBucket(store);
  await dropTestDatabase();
});

/** Other test files send mail to the same MailDev: each test writes to addresses of its own. */
const newAddress = () => `creator-${randomBytes(6).toString('hex')}@example.com`;

/** The mails caught for an address, once there are at least `atLeast` (delivery is asynchronous). */
async function mailsTo(address: string, atLeast = 0) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const caught = (await mail.list()).filter((message) => message.to.includes(address));
    if (caught.length >= atLeast || Date.now() > deadline) return caught;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function notify(sessionId: string, body: unknown, headers = csrfHeaders(sessionId)) {
  return request(server)
    .post(`/api/sessions/${sessionId}/notify`)
    .set(headers)
    .send(body as object);
}

it('e-mails the voting and results links, in text and HTML, and records the creator e-mail', async () => {
  const lastWeek = new Date(Date.now() - 7 * DAY_MS);
  const { sessionId } = await createPoll({ lastActivityAt: lastWeek });
  const address = newAddress();

  const res = await notify(sessionId, { email: address });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ message: 'Email sent', email: address });

  const caught = await mail.waitFor((message) => message.to.includes(address), { timeoutMs: 10_000 });
  expect(caught.to).toEqual([address]);
  expect(caught.envelopeTo).toEqual([address]);
  expect(caught.from).toBe('no-reply@logovote.local');
  // No question: the logos' names name the poll. Their files are not in the store: the names go without images.
  expect(caught.subject).toBe('Your LogoVote poll is ready: logo-0, logo-1, logo-2');
  expect(caught.text).toContain('Your logos:\n- logo-0\n- logo-1\n- logo-2');
  expect(caught.attachments).toEqual([]);
  const votingUrl = `https://logovote.example/vote/${sessionId}`;
  const resultsUrl = `https://logovote.example/results/${sessionId}`;
  for (const url of [votingUrl, resultsUrl]) {
    expect(caught.text).toContain(url);
    expect(caught.html).toContain(`<a href="${url}">`);
  }

  // Kept in the notify service's own collection: the poll itself is the sessions service's to write.
  const contact = await readPollContact(sessionId);
  expect(contact?.email).toBe(address);
  expect(contact?.lastActivityAt.getTime()).toBeGreaterThan(lastWeek.getTime());
  expect((await readPollStatus(sessionId)).lastActivityAt).toEqual(lastWeek);
});

it("adds each channel's voting link, numbered, without the channels' names", async () => {
  const { sessionId } = await createPoll();
  const channels = [
    { id: 'nEwSlTr1', name: 'Newsletter <b>VIP</b>' },
    { id: 'iNsTa-_2', name: 'Instagram' },
  ];
  await PollModel.updateOne({ _id: sessionId }, { $set: { channels } });
  const address = newAddress();
  await notify(sessionId, { email: address }).expect(200);

  const caught = await mail.waitFor((message) => message.to.includes(address), { timeoutMs: 10_000 });
  const votingUrl = `https://logovote.example/vote/${sessionId}`;
  expect(caught.text).toContain(`Channel 1: ${votingUrl}?via=nEwSlTr1\nChannel 2: ${votingUrl}?via=iNsTa-_2\n`);
  expect(caught.html).toContain(`Channel 2: <a href="${votingUrl}?via=iNsTa-_2">${votingUrl}?via=iNsTa-_2</a>`);
  for (const name of ['Newsletter', 'Instagram', 'VIP']) expect(`${caught.subject}${caught.text}${caught.html}`).not.toContain(name);
});

it("carries the question, the logos' names and each logo small, as inline images", async () => {
  const fixtures = join(__dirname, '..', '..', '..', 'tests', 'fixtures');
  const files = [
    { file: 'logo-ring.png', contentType: 'image/png', name: 'Ring & <b>mark</b>' },
    { file: 'logo-wave.svg', contentType: 'image/svg+xml', name: 'Wave' },
  ];
  const _id = newSessionId();
  const logos = await Promise.all(
    files.map(async ({ file, contentType, name }, index) => {
      const data = readFileSync(join(fixtures, file));
      const filename = `${_id}-${index}${file.slice(file.lastIndexOf('.'))}`;
      await store.client.putObject(store.bucket, filename, data, data.length, { 'Content-Type': contentType });
      return { id: `${_id}-logo${index}`, filename, originalName: file, contentType, size: data.length, name };
    }),
  );
  const question = 'Which logo should go on the "new" vans?';
  await recordPollCreating(_id);
  await PollModel.create({ _id, logos, feedbackPrompt: question });
  await recordPollActive(_id);
  const address = newAddress();
  await notify(_id, { email: address }).expect(200);

  const caught = await mail.waitFor((message) => message.to.includes(address), { timeoutMs: 10_000 });
  expect(caught.subject).toBe(`Your LogoVote poll is ready: "${question}"`);
  expect(caught.text).toContain(`Your question:\n"${question}"`);
  expect(caught.text).toContain('Your logos:\n- Ring & <b>mark</b>\n- Wave');
  expect(caught.text).toContain(`https://logovote.example/vote/${_id}`);
  expect(caught.html).toContain('Which logo should go on the &quot;new&quot; vans?');
  expect(caught.html).toContain('Ring &amp; &lt;b&gt;mark&lt;/b&gt;');
  expect(caught.html).not.toContain('<b>mark');
  // Inline images the HTML shows by Content-ID, each a small PNG of the logo (the SVG drawn too).
  expect(caught.attachments.map(({ contentId, contentType }) => ({ contentId, contentType }))).toEqual([
    { contentId: 'logo-1@logovote', contentType: 'image/png' },
    { contentId: 'logo-2@logovote', contentType: 'image/png' },
  ]);
  // MailDev shows a message's HTML with each cid: reference it could match replaced by the image itself.
  expect(caught.html).not.toContain('cid:');
  expect(caught.html?.match(/<img src="data:image\/png;base64,/g)).toHaveLength(2);
  for (const attachment of caught.attachments) {
    // A PNG's signature, then its IHDR chunk: width and height.
    const png = await mail.attachment(caught.id, attachment.fileName);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([128, 128]);
  }
});

it('trims the address, as the client does', async () => {
  const { sessionId } = await createPoll();
  const address = newAddress();
  await notify(sessionId, { email: `  ${address}\n` }).expect(200);
  await mail.waitFor((message) => message.to.includes(address), { timeoutMs: 10_000 });
  expect((await readPollContact(sessionId))?.email).toBe(address);
});

it.each([
  ['no address', {}, 'email: email is required'],
  ['an empty address', { email: '   ' }, 'email: Please enter a valid email address'],
  ['a malformed address', { email: 'not-an-email' }, 'email: Please enter a valid email address'],
  ['two addresses', { email: 'a@example.com, b@example.com' }, 'email: Please enter a valid email address'],
  ['a header injection', { email: 'a@example.com\nBcc: b@example.com' }, 'email: Please enter a valid email address'],
  ['an address that is not text', { email: ['a@example.com'] }, 'email: email must be a string'],
])('refuses %s with 400 and sends nothing', async (_, body, message) => {
  const { sessionId } = await createPoll();
  const res = await notify(sessionId, body);
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ message });
  expect((await readPollContact(sessionId))?.email).toBeUndefined();
  expect(await RateTicketModel.countDocuments({ subject: pollEmailsBucket(sessionId) })).toBe(0);
});

it('refuses a request without a valid anti-forgery token with 403', async () => {
  const { sessionId } = await createPoll();
  const other = await createPoll();
  const address = newAddress();
  const withoutToken = await request(server).post(`/api/sessions/${sessionId}/notify`).send({ email: address });
  const otherPollsToken = await notify(sessionId, { email: address }, csrfHeaders(other.sessionId));
  for (const res of [withoutToken, otherPollsToken]) {
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: CSRF_REJECTED });
  }
  expect(await mailsTo(address)).toEqual([]);
});

it('answers 404 for a poll that does not exist or is being deleted', async () => {
  const deleting = await createPoll({ state: 'deleting' });
  for (const sessionId of [newSessionId(), deleting.sessionId]) {
    const res = await notify(sessionId, { email: newAddress() });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Voting session not found' });
  }
  expect((await readPollContact(deleting.sessionId))?.email).toBeUndefined();
});

it('sends at most the configured number of e-mails per poll per hour, also to racing requests', async () => {
  const { sessionId } = await createPoll();
  const address = newAddress();
  const results = await Promise.all(Array.from({ length: 6 }, () => notify(sessionId, { email: address })));
  expect(results.map((res) => res.status).sort()).toEqual([200, 200, 429, 429, 429, 429]);
  const refused = results.find((res) => res.status === 429)!;
  expect(refused.body).toEqual({ message: 'This poll has already sent 2 emails in the last hour. Please try again later.' });
  const retryAfter = Number(refused.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(3600);

  // The limit is per poll.
  const other = await createPoll();
  await notify(other.sessionId, { email: address }).expect(200);
  const caught = await mailsTo(address, 3);
  expect(caught.filter((message) => message.text?.includes(`/vote/${sessionId}`))).toHaveLength(2);
  expect(caught.filter((message) => message.text?.includes(`/vote/${other.sessionId}`))).toHaveLength(1);
});

it("removes a deleted poll's sends and creator address, and only that poll's", async () => {
  const doomed = await createPoll();
  const kept = await createPoll();
  for (const { sessionId } of [doomed, kept]) await notify(sessionId, { email: newAddress() }).expect(200);
  await recordPollDeleting(doomed.sessionId);

  expect(await purgeNotifyDataOfDeletedPolls()).toBe(1);
  expect(await hasPollContact(doomed.sessionId)).toBe(false);
  expect(await RateTicketModel.countDocuments({ subject: pollEmailsBucket(doomed.sessionId) })).toBe(0);
  expect(await hasPollContact(kept.sessionId)).toBe(true);
  expect(await RateTicketModel.countDocuments({ subject: pollEmailsBucket(kept.sessionId) })).toBe(1);
});

describe('the limits across polls: per sender address, per recipient mailbox', () => {
  let limited: Server;
  beforeAll(() => {
    limited = createServer(
      buildApp({
        logger: silentLogger,
        mailer,
        store,
        config: { ...config, NOTIFY_EMAILS_PER_SENDER_PER_HOUR: 3, NOTIFY_EMAILS_PER_RECIPIENT_PER_DAY: 2 },
      }).callback(),
    );
  });

  /** The notify call from `sender`, the client address the gateway saw. */
  const notifyFrom = (sender: string, sessionId: string, email: string) =>
    request(limited).post(`/api/sessions/${sessionId}/notify`).set(csrfHeaders(sessionId)).set('X-Forwarded-For', sender).send({ email });

  it('sends one mailbox at most the daily number, from any polls and senders, however the address is spelled', async () => {
    const polls = await Promise.all([createPoll(), createPoll(), createPoll()]);
    const local = `stranger-${randomBytes(6).toString('hex')}`;
    await notifyFrom('203.0.113.1', polls[0]!.sessionId, `${local}@example.com`).expect(200);
    await notifyFrom('203.0.113.2', polls[1]!.sessionId, `${local.toUpperCase()}+tag@EXAMPLE.com`).expect(200);
    const refused = await notifyFrom('203.0.113.3', polls[2]!.sessionId, `${local}@example.com`);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      message:
        'Email limit reached: this address has already been sent 2 emails with poll links in the last 24 hours. Please try again later.',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(24 * 3600);
    // Delivery is asynchronous: the answer comes once the mail server took a mail, MailDev lists it a moment later.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const caught = (await mail.list()).filter((message) => message.to.some((to) => to.toLowerCase().startsWith(local)));
    expect(caught).toHaveLength(2);
    expect(caught.some((message) => message.text?.includes(`/vote/${polls[2]!.sessionId}`))).toBe(false);
  });

  it('sends at most the hourly number from one sender address across polls and recipients, also to racing requests', async () => {
    const polls = await Promise.all([createPoll(), createPoll(), createPoll()]);
    const recipients = Array.from({ length: 6 }, newAddress);
    const results = await Promise.all(recipients.map((email, n) => notifyFrom('198.51.100.9', polls[n % 3]!.sessionId, email)));
    expect(results.map((res) => res.status).sort()).toEqual([200, 200, 200, 429, 429, 429]);
    expect(results.find((res) => res.status === 429)!.body).toEqual({
      message:
        'Email limit reached: at most 3 emails with poll links can be sent per hour from the same network address. Please try again later.',
    });
    // Another address still sends.
    await notifyFrom('198.51.100.10', (await createPoll()).sessionId, newAddress()).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const caught = (await mail.list()).filter((message) => recipients.some((address) => message.to.includes(address)));
    expect(caught).toHaveLength(3);
  });

  it('keeps keyed hashes of the sender and the recipient, never their addresses', async () => {
    const { sessionId } = await createPoll();
    const address = newAddress();
    await notifyFrom('192.0.2.77', sessionId, address).expect(200);
    const tickets = JSON.stringify(await RateTicketModel.find({}).lean());
    for (const value of [address, address.split('@')[0]!, '192.0.2.77']) expect(tickets).not.toContain(value);
  });
});

describe('the private manage link (docs/closing.md)', () => {
  /** A poll as the sessions service creates it: with the hash of its creator token. */
  async function pollWithCreator() {
    const poll = await createPoll();
    const creatorToken = newCreatorToken();
    await PollModel.updateOne({ _id: poll.sessionId }, { $set: { creatorTokenHash: hashCreatorToken(creatorToken) } });
    return { ...poll, creatorToken };
  }

  /** The notify call with the creator token in its header (docs/closing.md). */
  const notifyAsCreator = (sessionId: string, email: string, creatorToken: string) =>
    notify(sessionId, { email }, { ...csrfHeaders(sessionId), [CREATOR_TOKEN_HEADER]: creatorToken });

  it("adds the private manage link, in text and HTML, when the request carries the poll's creator token", async () => {
    const { sessionId, creatorToken } = await pollWithCreator();
    const address = newAddress();
    await notifyAsCreator(sessionId, address, creatorToken).expect(200);
    const caught = await mail.waitFor((message) => message.to.includes(address), { timeoutMs: 10_000 });
    const manageUrl = `https://logovote.example/results/${sessionId}#manage=${creatorToken}`;
    expect(caught.text).toContain(manageUrl);
    expect(caught.html).toContain(`<a href="${manageUrl}">`);
    expect(caught.text).toContain(`https://logovote.example/vote/${sessionId}`);
  });

  it('sends the links without a manage link when no creator token comes (the spec call)', async () => {
    const { sessionId } = await pollWithCreator();
    const address = newAddress();
    await notify(sessionId, { email: address }).expect(200);
    const caught = await mail.waitFor((message) => message.to.includes(address), { timeoutMs: 10_000 });
    expect(caught.text).toContain(`https://logovote.example/results/${sessionId}`);
    expect(caught.text).not.toContain('#manage=');
    expect(caught.html).not.toContain('#manage=');
  });

  it.each([
    ['a wrong token', async () => (await pollWithCreator()).sessionId, newCreatorToken()],
    ['a malformed token', async () => (await pollWithCreator()).sessionId, 'not a token'],
    ['a poll created before creator tokens', async () => (await createPoll()).sessionId, newCreatorToken()],
  ])('refuses %s with 403 and sends nothing', async (_, poll, token) => {
    const sessionId = await poll();
    const address = newAddress();
    const res = await notifyAsCreator(sessionId, address, token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: CREATOR_TOKEN_REJECTED });
    expect(await RateTicketModel.countDocuments({ subject: pollEmailsBucket(sessionId) })).toBe(0);
    // The answer comes after the mail server took a mail: none was sent.
    expect((await mail.list()).filter((message) => message.to.includes(address))).toEqual([]);
  });
});
