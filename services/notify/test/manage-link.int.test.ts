import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { mailCatcherClient } from '@logovote/devstack';
import { CREATOR_TOKEN_HEADER, CREATOR_TOKEN_REJECTED } from '@logovote/contracts';
import { PollContactModel, PollModel, hashCreatorToken, newCreatorToken } from '@logovote/models';
import { testStack } from '../../../tests/support/stack-env';
import {
  TEST_CSRF_SECRET,
  connectTestDatabase,
  createPoll,
  csrfHeaders,
  dropTestDatabase,
  silentLogger,
  testDatabaseUri,
} from '../../../tests/support/integration';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createMailer, type Mailer } from '../src/mailer';
import { NotifySendModel } from '../src/models/notify-send';

// Requests against FerretDB and MailDev on a shared machine: more than jest's 5 s default.
jest.setTimeout(30_000);

const stack = testStack();
const mail = mailCatcherClient(stack.mailApiUrl);
const config = loadConfig({
  MONGODB_URI: testDatabaseUri('notify_manage'),
  CSRF_SECRET: TEST_CSRF_SECRET,
  SMTP_URL: stack.smtpUrl,
  PUBLIC_ORIGIN: 'https://logovote.example/',
});
let mailer: Mailer;
let server: Server;

beforeAll(async () => {
  await connectTestDatabase(config.MONGODB_URI, [PollModel, PollContactModel, NotifySendModel]);
  mailer = createMailer(config);
  server = createServer(buildApp({ logger: silentLogger, mailer, config }).callback());
});
afterAll(async () => {
  mailer.close();
  await dropTestDatabase();
});

const newAddress = () => `manager-${randomBytes(6).toString('hex')}@example.com`;

/** A poll as the sessions service creates it: with the hash of its creator token. */
async function pollWithCreator() {
  const poll = await createPoll();
  const creatorToken = newCreatorToken();
  await PollModel.updateOne({ _id: poll.sessionId }, { $set: { creatorTokenHash: hashCreatorToken(creatorToken) } });
  return { ...poll, creatorToken };
}

function notify(sessionId: string, email: string, creatorToken?: string) {
  const req = request(server).post(`/api/sessions/${sessionId}/notify`).set(csrfHeaders(sessionId));
  return (creatorToken === undefined ? req : req.set(CREATOR_TOKEN_HEADER, creatorToken)).send({ email });
}

it("adds the private manage link, in text and HTML, when the request carries the poll's creator token", async () => {
  const { sessionId, creatorToken } = await pollWithCreator();
  const address = newAddress();
  await notify(sessionId, address, creatorToken).expect(200);
  const caught = await mail.waitFor((message) => message.to.includes(address), { timeoutMs: 10_000 });
  const manageUrl = `https://logovote.example/results/${sessionId}#manage=${creatorToken}`;
  expect(caught.text).toContain(manageUrl);
  expect(caught.html).toContain(`<a href="${manageUrl}">`);
  expect(caught.text).toContain(`https://logovote.example/vote/${sessionId}`);
});

it('sends the links without a manage link when no creator token comes (the spec call)', async () => {
  const { sessionId } = await pollWithCreator();
  const address = newAddress();
  await notify(sessionId, address).expect(200);
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
  const res = await notify(sessionId, address, token);
  expect(res.status).toBe(403);
  expect(res.body).toEqual({ message: CREATOR_TOKEN_REJECTED });
  expect(await NotifySendModel.countDocuments({ pollId: sessionId })).toBe(0);
  // The answer comes after the mail server took a mail: none was sent.
  expect((await mail.list()).filter((message) => message.to.includes(address))).toEqual([]);
});
