/**
 * Polls and votes made through the real API (via the gateway), for browser tests that need a poll to
 * look at: created with the real fixture images, voted on by "voters" outside the browser, each with a
 * fingerprint of its own.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { CreatedSessionWithCreatorToken, LogoOrder, MyVote, ResultsVisibility, SessionView, VoteResponse } from '@logovote/contracts';
import type { ReportCategory } from '@logovote/contracts/report-categories';
import { testStack } from './stack-env';
import { fixture, FOUR_LOGOS } from './web';

export type PollOptions = {
  logos?: readonly string[];
  logoNames?: readonly string[];
  feedbackPrompt?: string;
  logoOrder?: LogoOrder;
  /** Channels (docs/channels.md), each its own voting link. */
  channels?: readonly string[];
  /** Attributes voters rate the logos on after their vote (docs/attributes.md). */
  attributes?: readonly string[];
  /** A poll for one shared network: its first 50 voters of an address pay no proof of work. */
  sharedNetwork?: boolean;
  /** Who sees the results (docs/results-visibility.md); the spec's 'everyone' when absent. */
  resultsVisibility?: ResultsVisibility;
  /** The gateway to create it through; the test stack's by default. */
  gatewayUrl?: string;
};

/** POST /api/sessions with fixture images (tests/fixtures); the four logos of FOUR_LOGOS by default. */
export async function createPoll(options: PollOptions = {}): Promise<CreatedSessionWithCreatorToken> {
  const form = new FormData();
  for (const name of options.logos ?? FOUR_LOGOS) {
    const file = fixture(name);
    form.append('logos', new Blob([new Uint8Array(file.buffer)], { type: file.mimeType }), file.name);
  }
  for (const name of options.logoNames ?? []) form.append('logoNames', name);
  if (options.feedbackPrompt) form.append('feedbackPrompt', options.feedbackPrompt);
  if (options.logoOrder) form.append('logoOrder', options.logoOrder);
  for (const name of options.channels ?? []) form.append('channels', name);
  for (const name of options.attributes ?? []) form.append('attributes', name);
  if (options.sharedNetwork) form.append('sharedNetwork', 'true');
  if (options.resultsVisibility) form.append('resultsVisibility', options.resultsVisibility);
  const res = await fetch(`${options.gatewayUrl ?? testStack().gatewayUrl}/api/sessions`, { method: 'POST', body: form });
  if (res.status !== 201) throw new Error(`creating a poll: ${res.status} ${await res.text()}`);
  return (await res.json()) as CreatedSessionWithCreatorToken;
}

/** GET /api/sessions/{id}: the poll with its current counts. */
export async function getPoll(sessionId: string, gatewayUrl = testStack().gatewayUrl): Promise<SessionView> {
  const res = await fetch(`${gatewayUrl}/api/sessions/${sessionId}`);
  if (res.status !== 200) throw new Error(`reading poll ${sessionId}: ${res.status} ${await res.text()}`);
  return (await res.json()) as SessionView;
}

/** A fingerprint as browsers make them: 16 lowercase hexadecimal characters. */
export const randomFingerprint = () => randomBytes(8).toString('hex');

/** Someone voting without a browser: one anti-forgery token and cookie, used for as many votes as asked. */
export async function apiVoter(sessionId: string, gatewayUrl = testStack().gatewayUrl) {
  const lookup = await fetch(`${gatewayUrl}/api/sessions/${sessionId}`);
  if (lookup.status !== 200) throw new Error(`reading poll ${sessionId}: ${lookup.status} ${await lookup.text()}`);
  const { csrfToken } = (await lookup.json()) as SessionView;
  const cookie = lookup.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ');
  return {
    /**
     * POST /api/sessions/{id}/vote as the visitor with `fingerprint` (a new one by default), with a solved
     * proof of work when given (X-Vote-Proof) and through a channel's link when `via` names one; the raw response.
     */
    vote(logoId: string, fingerprint = randomFingerprint(), proof?: string, via?: string): Promise<Response> {
      return fetch(`${gatewayUrl}/api/sessions/${sessionId}/vote`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-CSRF-Token': csrfToken ?? '',
          'X-Client-Fingerprint': fingerprint,
          Cookie: cookie,
          ...(proof ? { 'X-Vote-Proof': proof } : {}),
        },
        body: JSON.stringify(via ? { logoId, via } : { logoId }),
      });
    },
    /** PUT /api/sessions/{id}/attributes/{index} as the visitor with `fingerprint` (the one that voted); the raw response. */
    answerAttribute(attribute: number, logoId: string | null, fingerprint: string): Promise<Response> {
      return fetch(`${gatewayUrl}/api/sessions/${sessionId}/attributes/${attribute}`, {
        method: 'PUT',
        headers: {
          'Content-Type': 'application/json',
          'X-CSRF-Token': csrfToken ?? '',
          'X-Client-Fingerprint': fingerprint,
          Cookie: cookie,
        },
        body: JSON.stringify({ logoId }),
      });
    },
    /** PUT /api/sessions/{id}/reason as the visitor with `fingerprint` (the one that voted); the raw response. */
    giveReason(reason: string, fingerprint: string): Promise<Response> {
      return fetch(`${gatewayUrl}/api/sessions/${sessionId}/reason`, {
        method: 'PUT',
        headers: {
          'Content-Type': 'application/json',
          'X-CSRF-Token': csrfToken ?? '',
          'X-Client-Fingerprint': fingerprint,
          Cookie: cookie,
        },
        body: JSON.stringify({ reason }),
      });
    },
    /** POST /api/sessions/{id}/close as the poll's creator (docs/closing.md); the raw response. */
    close(creatorToken: string): Promise<Response> {
      return fetch(`${gatewayUrl}/api/sessions/${sessionId}/close`, {
        method: 'POST',
        headers: { 'X-CSRF-Token': csrfToken ?? '', 'X-Creator-Token': creatorToken, Cookie: cookie },
      });
    },
    /** POST /api/sessions/{id}/reports from this visitor's address; the raw response. */
    report(category: ReportCategory, note?: string): Promise<Response> {
      return fetch(`${gatewayUrl}/api/sessions/${sessionId}/reports`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken ?? '', Cookie: cookie },
        body: JSON.stringify(note === undefined ? { category } : { category, note }),
      });
    },
  };
}

/** One vote for `logoId` by a new visitor (its own fingerprint); fails the test unless it is recorded. */
export async function voteThroughApi(sessionId: string, logoId: string, fingerprint = randomFingerprint()): Promise<VoteResponse> {
  const res = await (await apiVoter(sessionId)).vote(logoId, fingerprint);
  if (res.status !== 200) throw new Error(`voting in ${sessionId}: ${res.status} ${await res.text()}`);
  return (await res.json()) as VoteResponse;
}

/** GET /api/sessions/{id}/my-vote as the visitor with `fingerprint`: the server's answer. */
export async function myVoteOf(sessionId: string, fingerprint: string, gatewayUrl = testStack().gatewayUrl): Promise<MyVote> {
  const res = await fetch(`${gatewayUrl}/api/sessions/${sessionId}/my-vote`, { headers: { 'X-Client-Fingerprint': fingerprint } });
  return (await res.json()) as MyVote;
}

/** The server's answer to my-vote for the fingerprint the page's browser has stored. */
export async function myVoteOfPage(page: Page, sessionId: string): Promise<MyVote> {
  const fingerprint = await page.evaluate(() => localStorage.getItem('logoVotingFingerprint'));
  return myVoteOf(sessionId, fingerprint ?? '');
}

/** Closes voting in `session` as its creator; fails the test unless the service agrees. */
export async function closeVoting(session: CreatedSessionWithCreatorToken): Promise<void> {
  const res = await (await apiVoter(session.sessionId)).close(session.creatorToken);
  if (res.status !== 200) throw new Error(`closing ${session.sessionId}: ${res.status} ${await res.text()}`);
}

/**
 * The page as the gateway sends it when the sessions service did not answer its embedding subrequest
 * in time: without the poll in its HTML, so the browser reads the poll itself (and a test can hold or
 * fail that read).
 */
export async function withoutEmbeddedPoll(page: Page, path: string): Promise<void> {
  await page.route(`${testStack().gatewayUrl}${path}`, async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(/<template id="logovote-poll">[^<]*<\/template>/, '');
    await route.fulfill({ response, body: html });
  });
}

/**
 * Opens a poll's screen (`/vote/...` or `/results/...`) and waits until its remote has rendered one of
 * its states. If the remote is momentarily down (another test file stops it to test the fallback), the
 * shell's 'Try again' is used until it is back.
 */
export async function visitPollScreen(page: Page, path: string, remote: 'vote' | 'results'): Promise<Page> {
  await page.goto(`${testStack().gatewayUrl}${path}`);
  const ready = `[data-remote="${remote}"]`;
  for (let attempt = 0; ; attempt += 1) {
    const shown = await page.waitForSelector(`${ready}, [data-remote-fallback="${remote}"]`, { timeout: 15_000 });
    if ((await shown.getAttribute('data-remote-fallback')) === null) return page;
    if (attempt >= 10) throw new Error(`the ${remote} remote stayed unavailable`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await page.getByRole('button', { name: 'Try again' }).click();
  }
}
