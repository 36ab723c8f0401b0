/**
 * Support for the admin page's tests: the admin's credentials, polls made through the real API or
 * written straight to the stack's database (the API refuses more than 4 logos) with real images in
 * the stack's bucket, and what the database and the bucket hold afterwards.
 */
import { randomBytes } from 'node:crypto';
import { extname } from 'node:path';
import type { AdminPollList, CreatedSession, PaymentPlan } from '@logovote/contracts';
import {
  PollModel,
  VoterSeatModel,
  listPoll,
  recordLogoFiles,
  recordNotifyActivity,
  recordPaymentPlan,
  recordPollActive,
  recordPollCreating,
} from '@logovote/models';
import { connectMongo, createObjectStore, disconnectMongo, type ObjectStore } from '@logovote/service-kit';
import { silentLogger, storeSettings } from './integration';
import { testStack } from './stack-env';
import { fixture } from './web';
import { insertFirstVotes } from '@logovote/models/test-support';

/** For Playwright's `httpCredentials`: the browser answers the gateway's basic-auth challenge with them. */
export function adminCredentials(): { username: string; password: string } {
  const { admin } = testStack();
  return { username: admin.user, password: admin.password };
}

export function adminAuthorization(): Record<string, string> {
  const { user, password } = testStack().admin;
  return { Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

/** GET /api/admin/polls through the gateway, as the admin. */
export async function listAdminPolls(): Promise<AdminPollList> {
  const polls: AdminPollList = [];
  // Every page, following each page's Link rel="next".
  for (let path: string | undefined = '/api/admin/polls'; path;) {
    const res: Response = await fetch(`${testStack().gatewayUrl}${path}`, { headers: adminAuthorization() });
    if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
    polls.push(...((await res.json()) as AdminPollList));
    path = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('Link') ?? '')?.[1];
  }
  return polls;
}

/** DELETE /api/admin/polls/{pollId} through the gateway, as the admin; resolves with the status. */
export async function deleteAdminPoll(pollId: string): Promise<number> {
  const res = await fetch(`${testStack().gatewayUrl}/api/admin/polls/${pollId}`, { method: 'DELETE', headers: adminAuthorization() });
  await res.body?.cancel();
  return res.status;
}

/** POST /api/sessions through the gateway with fixture images, as the landing page does. */
export async function createPollThroughApi(logos: readonly string[], feedbackPrompt?: string): Promise<CreatedSession> {
  const form = new FormData();
  for (const name of logos) {
    const file = fixture(name);
    form.append('logos', new Blob([new Uint8Array(file.buffer)], { type: file.mimeType }), file.name);
  }
  if (feedbackPrompt) form.append('feedbackPrompt', feedbackPrompt);
  const res = await fetch(`${testStack().gatewayUrl}/api/sessions`, { method: 'POST', body: form });
  if (res.status !== 201) throw new Error(`POST /api/sessions: ${res.status} ${await res.text()}`);
  return (await res.json()) as CreatedSession;
}

/** The stack's own bucket (the one the media service serves logos from). */
export function stackObjectStore(): ObjectStore {
  return createObjectStore(storeSettings(testStack().s3.bucket));
}

/** Connects mongoose to the stack's own database (`logovote`, the one the services use). */
export async function connectStackDatabase(): Promise<void> {
  await connectMongo(testStack().mongoUri, silentLogger);
}

export { disconnectMongo as disconnectStackDatabase };

export async function objectExists(store: ObjectStore, name: string): Promise<boolean> {
  try {
    await store.client.statObject(store.bucket, name);
    return true;
  } catch (error) {
    if (['NotFound', 'NoSuchKey'].includes(String((error as { code?: unknown }).code))) return false;
    throw error;
  }
}

export type SeededLogo = { fixture: string; votes: number };

export type SeededPoll = {
  pollId: string;
  logos: { id: string; filename: string; originalName: string; voteCount: number }[];
};

/** 22 random base64url characters and the fixture's extension: a name of the form the media service serves. */
const objectName = (fixtureName: string) => `${randomBytes(17).toString('base64url').slice(0, 22)}${extname(fixtureName)}`;

/** 16 hexadecimal characters, like a browser's fingerprint. */
const fingerprint = () => randomBytes(8).toString('hex');

/**
 * A poll written to the stack's database as the sessions service stores one, its images put in the
 * stack's bucket (so they load), and `votes` vote rows per logo in the votes collection (the source
 * of the counts). Needs connectStackDatabase() first.
 */
export async function writePollToDatabase(
  store: ObjectStore,
  options: {
    logos: readonly SeededLogo[];
    feedbackPrompt?: string;
    creatorEmail?: string;
    paymentPlan?: PaymentPlan;
    createdAt?: Date;
  },
): Promise<SeededPoll> {
  const pollId = randomBytes(12).toString('base64url');
  const logos = options.logos.map((logo, index) => {
    const file = fixture(logo.fixture);
    return {
      id: `logo-${index + 1}`,
      filename: objectName(logo.fixture),
      originalName: `option-${index + 1}-${logo.fixture}`,
      contentType: file.mimeType,
      size: file.buffer.length,
      buffer: file.buffer,
      votes: logo.votes,
    };
  });
  for (const logo of logos) {
    await store.client.putObject(store.bucket, logo.filename, logo.buffer, logo.size, { 'Content-Type': logo.contentType });
  }
  // The media service serves an image only of a poll that names it (docs/moderation.md).
  await recordLogoFiles(
    pollId,
    logos.map((logo) => logo.filename),
  );
  await recordPollCreating(pollId);
  await PollModel.create({
    _id: pollId,
    logos: logos.map(({ id, filename, originalName, contentType, size }) => ({ id, filename, originalName, contentType, size })),
    feedbackPrompt: options.feedbackPrompt,
  });
  // Listed as a created poll is (packages/models/src/poll-list.ts), before it shows as active.
  await listPoll(pollId);
  await recordPollActive(pollId);
  if (options.paymentPlan) await recordPaymentPlan(pollId, options.paymentPlan);
  // As the notify service records the address the links went to.
  if (options.creatorEmail) await recordNotifyActivity(pollId, options.creatorEmail);
  // Straight to the collection: mongoose keeps its own creation time.
  if (options.createdAt) await PollModel.collection.updateOne({ _id: pollId } as never, { $set: { createdAt: options.createdAt } });
  const votes = logos.flatMap((logo) =>
    Array.from({ length: logo.votes }, () => {
      const voter = fingerprint();
      return { pollId, fingerprint: voter, logoId: logo.id, ipHash: fingerprint(), seat: 0 };
    }),
  );
  await insertFirstVotes(votes);
  return {
    pollId,
    logos: logos.map(({ id, filename, originalName, votes: voteCount }) => ({ id, filename, originalName, voteCount })),
  };
}

/** How many vote rows a poll still has. */
export function countVotes(pollId: string): Promise<number> {
  return VoterSeatModel.countDocuments({ pollId });
}
