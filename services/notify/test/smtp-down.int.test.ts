import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { findFreePort, mailCatcherClient, startMailCatcher, type ManagedProcess } from '@logovote/devstack';
import { PollModel, readPollContact } from '@logovote/models';
import { createObjectStore } from '@logovote/service-kit';
import {
  TEST_CSRF_SECRET,
  connectTestDatabase,
  createPoll,
  csrfHeaders,
  dropTestDatabase,
  silentLogger,
  storeSettings,
  testDatabaseUri,
} from '../../../tests/support/integration';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createMailer, type Mailer } from '../src/mailer';
import { SEND_FAILED } from '../src/routes/notify';

// A private MailDev of this test's own, stopped halfway: the shared one keeps serving the other tests.
jest.setTimeout(90_000);

const logDir = mkdtempSync(join(tmpdir(), 'logovote-smtp-down-'));
let catcher: { proc: ManagedProcess; smtpPort: number; apiUrl: string };
let mailer: Mailer;
let server: Server;

beforeAll(async () => {
  catcher = await startMailCatcher({ smtpPort: await findFreePort(), httpPort: await findFreePort(), logDir });
  const config = loadConfig({
    MONGODB_URI: testDatabaseUri('notify_down'),
    CSRF_SECRET: TEST_CSRF_SECRET,
    SMTP_URL: `smtp://127.0.0.1:${catcher.smtpPort}`,
    ...storeSettings('notify-down-has-no-logos'),
  });
  await connectTestDatabase(config.MONGODB_URI, [PollModel]);
  mailer = createMailer(config);
  server = createServer(buildApp({ logger: silentLogger, mailer, store: createObjectStore(config), config }).callback());
});
afterAll(async () => {
  mailer.close();
  await catcher.proc.stop();
  await dropTestDatabase();
  rmSync(logDir, { recursive: true, force: true });
});

it('answers 502 with a message when the SMTP server is down, and loses nothing', async () => {
  const { sessionId } = await createPoll({ feedbackPrompt: 'Which one?' });
  const sent = await request(server)
    .post(`/api/sessions/${sessionId}/notify`)
    .set(csrfHeaders(sessionId))
    .send({ email: 'first@example.com' });
  expect(sent.status).toBe(200);
  await mailCatcherClient(catcher.apiUrl).waitFor((message) => message.to.includes('first@example.com'), { timeoutMs: 10_000 });
  const before = await PollModel.findById(sessionId).lean();
  const sentAt = (await readPollContact(sessionId))?.lastActivityAt;

  await catcher.proc.stop();

  const failed = await request(server)
    .post(`/api/sessions/${sessionId}/notify`)
    .set(csrfHeaders(sessionId))
    .send({ email: 'second@example.com' });
  expect(failed.status).toBe(502);
  expect(failed.body).toEqual({ message: SEND_FAILED });
  // The poll and its logos are unchanged; the address that did receive the links stays, the attempt counts as activity.
  expect(await PollModel.findById(sessionId).lean()).toEqual(before);
  const contact = await readPollContact(sessionId);
  expect(contact?.email).toBe('first@example.com');
  expect(contact?.lastActivityAt.getTime()).toBeGreaterThanOrEqual(sentAt!.getTime());

  // A poll that never had an e-mail sent records no address.
  const fresh = await createPoll();
  const unsent = await request(server)
    .post(`/api/sessions/${fresh.sessionId}/notify`)
    .set(csrfHeaders(fresh.sessionId))
    .send({ email: 'third@example.com' });
  expect(unsent.status).toBe(502);
  expect((await readPollContact(fresh.sessionId))?.email).toBeUndefined();
});
