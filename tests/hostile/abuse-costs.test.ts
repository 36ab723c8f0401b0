/**
 * Abuse that would cost the product CPU, disk or its mail reputation, through the gateway: poll creations
 * past an address's hourly limit are refused before anything is received, checked or stored; links e-mails
 * are limited per recipient mailbox across polls and per sender address across recipients; an upload that
 * trickles is answered 408 and its connection closed, long before Node's own 300 s limit.
 */
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import mongoose from 'mongoose';
import { mailCatcherClient } from '@logovote/devstack';
import type { CreatedSession } from '@logovote/contracts';
import { TEST_STACK_LIMITS, testStack } from '../support/stack-env';
import { validImages } from './support/fixtures';
import { call, jsonMessage, multipart, parseAnswer, targetOf, type Answer, type HttpCall, type Target } from './support/http';
import { createPollVia, tokenFor } from './support/polls';

// Hundreds of cheap requests at the gateway's rate, and uploads that trickle until the services cut them.
jest.setTimeout(120_000);

const { gatewayUrl, mongoUri, mailApiUrl, admin } = testStack();
const mail = mailCatcherClient(mailApiUrl);
const CREATIONS_PER_HOUR = Number(TEST_STACK_LIMITS.POLL_CREATIONS_PER_ADDRESS_PER_HOUR);
/** The notify service's defaults, which the test stack keeps. */
const EMAILS_PER_POLL_PER_HOUR = 5;
const EMAILS_PER_SENDER_PER_HOUR = 20;
const EMAILS_PER_RECIPIENT_PER_DAY = 10;
/** What the gateway itself says past its own request rate: such answers are sent again a moment later. */
const GATEWAY_RATE_LIMITED = 'Too many requests. Please slow down and try again in a moment.';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const adminAuthorization = `Basic ${Buffer.from(`${admin.user}:${admin.password}`).toString('base64')}`;

let images: Awaited<ReturnType<typeof validImages>>;
let db: mongoose.Connection;
beforeAll(async () => {
  images = await validImages();
  db = await mongoose.createConnection(mongoUri).asPromise();
});
afterAll(() => db.close());

/** A request answered by the services: what the gateway refuses for its own rate is sent again. */
async function callPastGatewayRate(target: Target, req: HttpCall): Promise<Answer> {
  for (;;) {
    const answer = await call(target, req);
    if (answer.status !== 429 || jsonMessage(answer) !== GATEWAY_RATE_LIMITED) return answer;
    await sleep(200);
  }
}

/** POST /api/sessions with the given parts. */
function creation(parts: Parameters<typeof multipart>[0], headers: Record<string, string> = {}): HttpCall {
  const { body, contentType } = multipart(parts);
  return { method: 'POST', path: '/api/sessions', headers: { 'Content-Type': contentType, ...headers }, body };
}

/** A file the pipeline refuses at its first check and records in the admin's list of refused uploads, under its name. */
const notAnImage = (filename: string) => ({ name: 'logos', filename, type: 'image/png', data: 'plain text, not a PNG' });

async function refusedUploadNames(): Promise<string[]> {
  const answer = await call(targetOf(gatewayUrl, '127.0.0.200'), {
    method: 'GET',
    path: '/api/admin/refusals?limit=100',
    headers: { Authorization: adminAuthorization },
  });
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.body) as { fileName: string }[]).map((refusal) => refusal.fileName);
}

describe('poll creations per address', () => {
  it(`refuses creations past ${CREATIONS_PER_HOUR} an hour with a JSON 429 and Retry-After, before anything is checked or stored`, async () => {
    const creator = targetOf(gatewayUrl, '127.0.0.201');
    const marker = randomBytes(4).toString('hex');

    // Below the limit, a refused upload goes through the checks and is recorded for the admin (a moment later).
    const checked = await callPastGatewayRate(creator, creation([notAnImage(`checked-${marker}.png`)]));
    expect(checked.status).toBe(415);
    for (let tries = 0; !(await refusedUploadNames()).includes(`checked-${marker}.png`); tries++) {
      expect(tries).toBeLessThan(50);
      await sleep(200);
    }

    // Requests without a logo are refused at once (400) and cost nothing to make, but each counts. A few at a
    // time, as a script would send them: requests of one address that race for the last ticket read it again.
    const empty = creation([{ name: 'feedbackPrompt', data: 'Which one?' }]);
    let used = 1;
    const statuses = new Map<number, number>();
    await Promise.all(
      Array.from({ length: 2 }, async () => {
        while (used < CREATIONS_PER_HOUR) {
          used++;
          const answer = await callPastGatewayRate(creator, empty);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        }
      }),
    );
    expect(Object.fromEntries(statuses)).toEqual({ 400: CREATIONS_PER_HOUR - 1 });

    // Past the limit: a valid poll, a file the checks would refuse, and a forged X-Forwarded-For.
    const prompt = `over the limit ${marker}`;
    const refused = await Promise.all(
      [
        creation([
          { name: 'feedbackPrompt', data: prompt },
          { name: 'logos', filename: 'a.png', type: 'image/png', data: images.png },
          { name: 'logos', filename: 'b.jpg', type: 'image/jpeg', data: images.jpeg },
        ]),
        creation([notAnImage(`unchecked-${marker}.png`)]),
        creation([{ name: 'logos', filename: 'c.png', type: 'image/png', data: images.png }], { 'X-Forwarded-For': '198.51.100.23' }),
      ].map((req) => callPastGatewayRate(creator, req)),
    );
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(jsonMessage(answer)).toBe(
        `Poll limit reached: at most ${CREATIONS_PER_HOUR} polls can be created per hour from the same network address. Please try again later.`,
      );
      const retryAfter = Number(answer.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(3600);
    }
    expect(await db.collection('polls').countDocuments({ feedbackPrompt: prompt })).toBe(0);
    // As long as the refusal below the limit took to be listed, and more.
    await sleep(2000);
    expect(await refusedUploadNames()).not.toContain(`unchecked-${marker}.png`);

    // Another address creates as before.
    await createPollVia(targetOf(gatewayUrl, '127.0.0.202'), [images.png, images.webp]);
  });
});

describe('links e-mails', () => {
  /** POST /api/sessions/{id}/notify from `from`, as the creation page sends it. */
  async function notifier(from: Target, poll: CreatedSession) {
    const { cookie, token } = await tokenFor(from, poll.sessionId);
    return (email: string) =>
      callPastGatewayRate(from, {
        method: 'POST',
        path: `/api/sessions/${poll.sessionId}/notify`,
        headers: { 'Content-Type': 'application/json', Cookie: cookie, 'X-CSRF-Token': token },
        body: JSON.stringify({ email }),
      });
  }

  /** Polls created one after the other from `from`, as one creator makes them. */
  async function pollsOf(from: Target, count: number): Promise<CreatedSession[]> {
    const polls: CreatedSession[] = [];
    for (let n = 0; n < count; n++) polls.push(await createPollVia(from, [images.png, images.jpeg]));
    return polls;
  }

  /** The mails MailDev caught for any of `addresses`, once no more arrive (delivery is asynchronous). */
  async function caughtFor(addresses: string[], expected: number) {
    const wanted = new Set(addresses.map((address) => address.toLowerCase()));
    const caught = async () => (await mail.list()).filter((message) => message.to.some((to) => wanted.has(to.toLowerCase())));
    const deadline = Date.now() + 10_000;
    while ((await caught()).length < expected && Date.now() < deadline) await sleep(200);
    // A moment longer: a mail that should not exist would show up now.
    await sleep(1000);
    return caught();
  }

  it(`sends one stranger at most ${EMAILS_PER_RECIPIENT_PER_DAY} in a day, however many polls ask and however the address is spelled`, async () => {
    const sender = targetOf(gatewayUrl, '127.0.0.203');
    const local = `stranger.${randomBytes(4).toString('hex')}`;
    const spellings = [`${local}@example.org`, `${local.toUpperCase()}@Example.org`, `${local}+poll@example.org`];
    const polls = await pollsOf(sender, 3);
    const statuses: number[] = [];
    let refusal: Answer | undefined;
    // Five from each poll (its own limit), then one more from the third: the eleventh mail to the mailbox.
    for (const [index, poll] of polls.entries()) {
      const notify = await notifier(sender, poll);
      for (let n = 0; n < (index < 2 ? EMAILS_PER_POLL_PER_HOUR : 1); n++) {
        const answer = await notify(spellings[(statuses.length + n) % spellings.length]!);
        statuses.push(answer.status);
        if (answer.status === 429) refusal = answer;
      }
    }
    expect(statuses).toEqual([...Array<number>(EMAILS_PER_RECIPIENT_PER_DAY).fill(200), 429]);
    expect(jsonMessage(refusal!)).toBe(
      `Email limit reached: this address has already been sent ${EMAILS_PER_RECIPIENT_PER_DAY} emails with poll links in the last 24 hours. Please try again later.`,
    );
    expect(Number(refusal!.headers['retry-after'])).toBeGreaterThan(3600);
    expect(Number(refusal!.headers['retry-after'])).toBeLessThanOrEqual(24 * 3600);
    expect(await caughtFor(spellings, EMAILS_PER_RECIPIENT_PER_DAY)).toHaveLength(EMAILS_PER_RECIPIENT_PER_DAY);
  });

  it(`sends at most ${EMAILS_PER_SENDER_PER_HOUR} an hour from one address, across its polls and recipients`, async () => {
    const sender = targetOf(gatewayUrl, '127.0.0.204');
    const recipients = Array.from(
      { length: EMAILS_PER_SENDER_PER_HOUR + 1 },
      (_, n) => `creator${n}.${randomBytes(4).toString('hex')}@example.org`,
    );
    const pollCount = Math.ceil(recipients.length / EMAILS_PER_POLL_PER_HOUR);
    const polls = await pollsOf(sender, pollCount);
    const answers: Answer[] = [];
    for (const [index, recipient] of recipients.entries()) {
      const notify = await notifier(sender, polls[Math.floor(index / EMAILS_PER_POLL_PER_HOUR)]!);
      answers.push(await notify(recipient));
    }
    expect(answers.map((answer) => answer.status)).toEqual([...Array<number>(EMAILS_PER_SENDER_PER_HOUR).fill(200), 429]);
    const refusal = answers.at(-1)!;
    expect(jsonMessage(refusal)).toBe(
      `Email limit reached: at most ${EMAILS_PER_SENDER_PER_HOUR} emails with poll links can be sent per hour from the same network address. Please try again later.`,
    );
    expect(Number(refusal.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refusal.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(await caughtFor(recipients, EMAILS_PER_SENDER_PER_HOUR)).toHaveLength(EMAILS_PER_SENDER_PER_HOUR);
  });
});

describe('uploads that trickle', () => {
  const BOUNDARY = 'trickle';

  /**
   * Starts an upload of a 100 kB body through the gateway, then sends one byte every 2 s for as long as the
   * connection stays open: what the server answered once it closed it. The client gives up after 60 s (the
   * services' default limits cut such an upload after about 10 s).
   */
  function trickle(from: Target, path: string, field: string): Promise<Answer> {
    const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="slow.png"\r\nContent-Type: image/png\r\n\r\n`;
    return new Promise((resolve, reject) => {
      const received: Buffer[] = [];
      const socket = connect({ host: from.host, port: from.port, localAddress: from.localAddress }, () => {
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: logovote\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
            `Content-Length: 100000\r\n\r\n${head}`,
        );
      });
      const dripper = setInterval(() => socket.writable && socket.write('x'), 2000);
      let gaveUp = false;
      const giveUp = setTimeout(() => {
        gaveUp = true;
        socket.destroy();
      }, 60_000);
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      // A reset after the answer (the server closed while bytes were still coming) ends the exchange like a close.
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(dripper);
        clearTimeout(giveUp);
        if (gaveUp) return reject(new Error(`${path}: still open after 60 s`));
        try {
          resolve(parseAnswer(Buffer.concat(received)));
        } catch (error: unknown) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
  }

  it.each([
    ['poll creation', '127.0.0.205', '/api/sessions', 'logos'],
    ['the moderation test page', '127.0.0.206', '/api/test/moderate', 'image'],
  ])('answers %s that sends a byte every 2 s with a JSON 408 and closes the connection', async (_, address, path, field) => {
    const answer = await trickle(targetOf(gatewayUrl, address), path, field);
    expect(answer.status).toBe(408);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(jsonMessage(answer)).toBe('The upload was too slow: less than 4 kB per second. Please try again on a faster connection.');
  });
});
