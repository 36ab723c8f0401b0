import type {
  AdminPollDetails,
  AttributeAnswerRequest,
  AttributeAnswerResponse,
  AttributeResults,
  AdminPollList,
  ChannelResults,
  CreatedSessionWithCreatorToken,
  DeletedPoll,
  LogoOrder,
  ModerationResult,
  MyAttributeAnswers,
  MyNotes,
  MyVote,
  NoteRequest,
  NoteResponse,
  NotesPage,
  NotifyRequest,
  NotifyResponse,
  PaymentPlan,
  ReasonRequest,
  ReasonResponse,
  ReasonsPage,
  ReportedPollList,
  ReportRequest,
  ReportResponse,
  ResultsVisibility,
  ReviewedPoll,
  ReviewRequest,
  SessionView,
  SetPlanRequest,
  SetPlanResponse,
  TestSession,
  TestVoteList,
  TestVoteRecord,
  TestVoteRequest,
  ThemesResponse,
  UploadRefusalList,
  VoteChallenge,
  VoteRequest,
  VoteResponse,
} from '@logovote/contracts';
import { logoPath } from '@logovote/contracts/logo-path';

import {
  CREATOR_TOKEN_HEADER,
  ATTRIBUTES_FIELD,
  CHANNELS_FIELD,
  CSRF_HEADER,
  FINGERPRINT_HEADER,
  LOGOS_FIELD,
  LOGO_NAMES_FIELD,
  MODERATION_IMAGE_FIELD,
  SEARCH_MORE_HEADER,
  TOTAL_COUNT_HEADER,
  VOTE_PROOF_HEADER,
} from './constants';
import { CsrfTokenCache, sessionIdInUrl } from './csrf-tokens';
import { ApiError, parseResponseJson } from './api-error';
import type { ResultsViewer } from './results-visibility';
import { postMultipart, type RawResponse, type UploadOptions } from './upload';

/** A page of the admin list. */
export type AdminPollPage = { polls: AdminPollList; total: number; next?: string };
/** The admin's search: the polls found (newest first) and whether more match than it holds. */
export type AdminPollSearch = { polls: AdminPollList; more: boolean };
/** A page of the admin's list of refused uploads. */
export type UploadRefusalPage = { refusals: UploadRefusalList; next?: string };

const nextPagePath = (headers: Headers): string | undefined => /<([^>]+)>;\s*rel="next"/.exec(headers.get('Link') ?? '')?.[1];

export type ApiClientOptions = {
  /** Prefix of every path; '' (same origin, through the gateway) in the browser. */
  baseUrl?: string;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Injected for tests; defaults to XMLHttpRequest (upload progress). */
  postMultipart?: typeof postMultipart;
  /** Where warnings go (no token available); defaults to the console. */
  warn?: (message: string) => void;
  /**
   * Solves a vote's proof-of-work challenge into the X-Vote-Proof value (the page's client: Web
   * Workers, ./proof-of-work). Without one, a vote answered with a challenge fails with its 428.
   */
  solveVoteChallenge?: (challenge: VoteChallenge) => Promise<string>;
  /** A poll the page already holds (./page-poll): a read of it is answered from there, without a request. */
  pagePoll?: (sessionId: string) => SessionView | undefined;
};

/** The challenge of a vote answered 428 (proof of work required), if this error is one. */
function challengeOf(error: unknown): VoteChallenge | undefined {
  if (!(error instanceof ApiError) || error.status !== 428) return undefined;
  try {
    return (JSON.parse(error.bodyText) as { challenge?: VoteChallenge }).challenge;
  } catch {
    return undefined;
  }
}

/**
 * Challenges one vote solves at most: a solved proof finds its level's seats taken when others on the
 * same network voted meanwhile, and is then answered with a challenge of the next level.
 */
const MAX_PROOFS_PER_VOTE = 4;

export type RequestOptions = Omit<RequestInit, 'credentials' | 'body'> & {
  /** Sent as JSON with Content-Type: application/json. */
  json?: unknown;
  /** Sent as is (FormData for multipart). */
  body?: BodyInit;
  /** A 401 yields `null` instead of an error (spec section 7: the generic read's alternative). */
  nullOn401?: boolean;
};

export type CreateSessionInput = {
  logos: readonly File[];
  /** One name per logo, in the same order (an empty one gets the server's default, the file name without its extension). */
  logoNames?: readonly string[];
  feedbackPrompt?: string;
  logoOrder?: LogoOrder;
  sharedNetwork?: boolean;
  resultsVisibility?: ResultsVisibility;
  /** The channels' names (docs/channels.md), each its own voting link. */
  channels?: readonly string[];
  /** What voters rate the logos on after their vote (docs/attributes.md). */
  attributes?: readonly string[];
};

export const MESSAGES = {
  createFailed: 'Failed to create voting session',
  tokenRefreshFailed: 'Failed to fetch session data',
  notifyFailed: 'Failed to send email',
  votingFailed: (status: number) => `Voting failed with status: ${status}`,
  reasonFailed: 'Your reason could not be sent. Please try again.',
  noteFailed: 'Your note could not be sent. Please try again.',
  answerFailed: 'Your answer could not be sent. Please try again.',
  reportFailed: 'Your report could not be sent. Please try again.',
} as const;

/**
 * Section 7's calls with its shared request behaviour: credentials on every call; a non-OK response
 * becomes an ApiError (`{status}: {body text or status text}`); every non-GET call on
 * `/api/sessions/{id}...` carries that session's cached anti-forgery token, fetched through the
 * session lookup when none is cached yet (a warning if there is still none).
 */
export function createApiClient(options: ApiClientOptions = {}) {
  const baseUrl = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const upload = options.postMultipart ?? postMultipart;
  // eslint-disable-next-line no-console -- the spec asks for a logged warning
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const tokens = new CsrfTokenCache();
  const { solveVoteChallenge, pagePoll } = options;

  async function tokenFor(sessionId: string): Promise<string | undefined> {
    if (!tokens.get(sessionId)) {
      try {
        await fetchSession(sessionId);
      } catch {
        // Reported below as "no token"; the write itself then fails with the server's answer.
      }
    }
    const token = tokens.get(sessionId);
    if (!token) warn(`[LogoVote] no anti-forgery token for session ${sessionId}: sending the request without one`);
    return token;
  }

  /** One call: returns the OK response's text, throws ApiError otherwise. */
  async function send(path: string, init: RequestOptions = {}): Promise<{ status: number; text: string; headers: Headers }> {
    const { json, nullOn401: _nullOn401, ...rest } = init;
    const method = (rest.method ?? 'GET').toUpperCase();
    const headers = new Headers(rest.headers);
    if (!headers.has('Accept')) headers.set('Accept', 'application/json');
    let body = rest.body;
    if (json !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(json);
    }
    const sessionId = method === 'GET' || method === 'HEAD' ? null : sessionIdInUrl(path);
    if (sessionId) {
      const token = await tokenFor(sessionId);
      if (token) headers.set(CSRF_HEADER, token);
    }
    const response = await doFetch(`${baseUrl}${path}`, { ...rest, method, headers, body, credentials: 'include' });
    const text = await response.text();
    if (!response.ok) throw new ApiError(response.status, response.statusText, text);
    return { status: response.status, text, headers: response.headers };
  }

  /** The options of a read that the creator's token may show more of (docs/results-visibility.md). */
  function creatorHeaders(creatorToken: string | undefined): RequestOptions {
    return creatorToken ? { headers: { [CREATOR_TOKEN_HEADER]: creatorToken } } : {};
  }

  /** A call whose OK answer is JSON (or empty). */
  async function request<T>(path: string, init: RequestOptions = {}): Promise<T> {
    try {
      return parseResponseJson<T>((await send(path, init)).text);
    } catch (error) {
      if (init.nullOn401 && error instanceof ApiError && error.status === 401) return null as T;
      throw error;
    }
  }

  /**
   * GET /api/sessions/{id}: the poll; its anti-forgery token is cached for the writes that follow. With a
   * `viewer`, the headers that may show this browser results withheld from others (docs/results-visibility.md).
   */
  async function fetchSession(sessionId: string, viewer?: ResultsViewer): Promise<SessionView> {
    const headers = {
      ...(viewer?.creatorToken ? { [CREATOR_TOKEN_HEADER]: viewer.creatorToken } : {}),
      ...(viewer?.fingerprint ? { [FINGERPRINT_HEADER]: viewer.fingerprint } : {}),
    };
    const session = await request<SessionView>(`/api/sessions/${encodeURIComponent(sessionId)}`, { headers });
    tokens.set(sessionId, session.csrfToken);
    return session;
  }

  /**
   * The poll: the page's copy for its first read, when the page holds one, else the server's. The
   * page's copy leaves the token alone: that token was issued with the anti-forgery cookie of the
   * gateway's own request, which never reached this browser; writes read the poll afresh first.
   */
  async function getSession(sessionId: string, viewer?: ResultsViewer): Promise<SessionView> {
    return pagePoll?.(sessionId) ?? fetchSession(sessionId, viewer);
  }

  /** The session lookup made before notify and before voting, for a fresh token. */
  async function refreshSession(sessionId: string): Promise<SessionView> {
    try {
      return await fetchSession(sessionId);
    } catch (error) {
      throw new Error(MESSAGES.tokenRefreshFailed, { cause: error });
    }
  }

  /**
   * POST /api/sessions (multipart: `logos` repeated, `logoNames` one per logo when given,
   * `feedbackPrompt` only when non-empty after trimming), with upload progress. A non-OK answer throws an Error carrying the server's message, or
   * 'Failed to create voting session'; no answer at all rejects as fetch() would (TypeError).
   */
  async function createSession(input: CreateSessionInput, uploadOptions: UploadOptions = {}): Promise<CreatedSessionWithCreatorToken> {
    const form = new FormData();
    for (const logo of input.logos) form.append(LOGOS_FIELD, logo, logo.name);
    for (const name of input.logoNames ?? []) form.append(LOGO_NAMES_FIELD, name);
    for (const name of input.channels ?? []) form.append(CHANNELS_FIELD, name);
    for (const name of input.attributes ?? []) form.append(ATTRIBUTES_FIELD, name);
    const feedbackPrompt = input.feedbackPrompt?.trim();
    if (feedbackPrompt) form.append('feedbackPrompt', feedbackPrompt);
    // Sent only when asked for: a creation without it is the spec's (upload order).
    if (input.logoOrder) form.append('logoOrder', input.logoOrder);
    if (input.sharedNetwork) form.append('sharedNetwork', 'true');
    if (input.resultsVisibility && input.resultsVisibility !== 'everyone') form.append('resultsVisibility', input.resultsVisibility);
    const response: RawResponse = await upload(`${baseUrl}/api/sessions`, form, uploadOptions);
    if (!response.ok) {
      const error = new ApiError(response.status, response.statusText, response.bodyText);
      throw new Error(error.serverMessage ?? MESSAGES.createFailed, { cause: error });
    }
    const session = parseResponseJson<CreatedSessionWithCreatorToken>(response.bodyText);
    if (session?.sessionId) tokens.set(session.sessionId, session.csrfToken);
    return session;
  }

  /** GET /api/sessions/{id}/my-vote; any failure counts as not voted. */
  async function readMyVote(sessionId: string, fingerprint: string): Promise<MyVote> {
    try {
      const status = await request<MyVote>(`/api/sessions/${encodeURIComponent(sessionId)}/my-vote`, {
        headers: { [FINGERPRINT_HEADER]: fingerprint },
      });
      if (status.hasVoted !== true) return { hasVoted: false, logoId: null };
      return { hasVoted: true, logoId: status.logoId, ...(typeof status.reason === 'string' ? { reason: status.reason } : {}) };
    } catch {
      return { hasVoted: false, logoId: null };
    }
  }
  const myVoteKey = (sessionId: string, fingerprint: string) => `${sessionId}\n${fingerprint}`;
  /** My-vote reads started by prefetchMyVote and not yet taken over. */
  const myVotesAhead = new Map<string, Promise<MyVote>>();
  /** The answers of those reads once they have come. */
  const myVotesAnswered = new Map<string, MyVote>();

  return {
    request,
    getSession,
    /**
     * The page's copy of this poll if it has not been read yet (once): a screen's first render can show
     * the poll at once (TanStack Query's initialData) instead of a loading state for one frame.
     */
    takePagePoll: (sessionId: string): SessionView | undefined => pagePoll?.(sessionId),
    refreshSession,
    createSession,

    /** PUT /api/sessions/{id}/plan: records the plan chosen in the creation dialog. */
    setPaymentPlan(sessionId: string, paymentPlan: PaymentPlan): Promise<SetPlanResponse> {
      const json: SetPlanRequest = { paymentPlan };
      return request(`/api/sessions/${encodeURIComponent(sessionId)}/plan`, { method: 'PUT', json });
    },

    /**
     * POST /api/sessions/{id}/notify after a token refresh; failures carry the server's message or 'Failed
     * to send email'. With the creator token (a header: the body stays the spec's) the e-mail also carries
     * the private manage link (docs/closing.md).
     */
    async sendLinksByEmail(sessionId: string, email: string, creatorToken?: string): Promise<NotifyResponse> {
      await refreshSession(sessionId);
      const json: NotifyRequest = { email: email.trim() };
      const headers = creatorToken ? { [CREATOR_TOKEN_HEADER]: creatorToken } : undefined;
      try {
        return await request<NotifyResponse>(`/api/sessions/${encodeURIComponent(sessionId)}/notify`, { method: 'POST', json, headers });
      } catch (error) {
        throw new Error((error instanceof ApiError && error.serverMessage) || MESSAGES.notifyFailed, { cause: error });
      }
    },

    /**
     * GET /api/sessions/{id}/my-vote; any failure counts as not voted. A read started ahead by
     * prefetchMyVote (same poll, same fingerprint) is taken over instead of asking again.
     */
    getMyVote(sessionId: string, fingerprint: string): Promise<MyVote> {
      const key = myVoteKey(sessionId, fingerprint);
      const ahead = myVotesAhead.get(key);
      myVotesAhead.delete(key);
      myVotesAnswered.delete(key);
      return ahead ?? readMyVote(sessionId, fingerprint);
    },

    /**
     * The answer of a my-vote read started by prefetchMyVote, if it has come (taken over once, as by
     * getMyVote): a screen's first render can start from the server's answer (TanStack Query's
     * initialData) rather than render 'Loading' and then the whole screen again.
     */
    takeMyVote(sessionId: string, fingerprint: string): MyVote | undefined {
      const key = myVoteKey(sessionId, fingerprint);
      const answer = myVotesAnswered.get(key);
      if (answer) {
        myVotesAnswered.delete(key);
        myVotesAhead.delete(key);
      }
      return answer;
    },

    /**
     * Starts the my-vote read of a page about to show the poll, so its answer is on its way while the
     * screen's code still loads; the screen's own getMyVote (or takeMyVote, once answered) takes it over
     * (once). Returns the read, for a caller that waits for the answer before the first render.
     */
    prefetchMyVote(sessionId: string, fingerprint: string): Promise<MyVote> {
      const key = myVoteKey(sessionId, fingerprint);
      let ahead = myVotesAhead.get(key);
      if (!ahead) {
        const read = readMyVote(sessionId, fingerprint);
        void read.then((answer) => {
          if (myVotesAhead.get(key) === read) myVotesAnswered.set(key, answer);
        });
        ahead = read;
        myVotesAhead.set(key, read);
      }
      return ahead;
    },

    /**
     * POST /api/sessions/{id}/vote after a token refresh; a non-OK answer throws 'Voting failed with
     * status: {status}'. A vote answered with a proof-of-work challenge (428: many voters from this
     * address) is sent again with the challenge solved, all within this one call; `onSolving` hears
     * when a solve starts. `via`: the channel this browser first arrived through (docs/channels.md).
     */
    async submitVote(sessionId: string, logoId: string, fingerprint: string, onSolving?: () => void, via?: string): Promise<VoteResponse> {
      await refreshSession(sessionId);
      const json: VoteRequest = via ? { logoId, via } : { logoId };
      const post = (proof?: string) =>
        request<VoteResponse>(`/api/sessions/${encodeURIComponent(sessionId)}/vote`, {
          method: 'POST',
          json,
          headers: { [FINGERPRINT_HEADER]: fingerprint, ...(proof ? { [VOTE_PROOF_HEADER]: proof } : {}) },
        });
      try {
        let proof: string | undefined;
        for (let solved = 0; ; solved++) {
          try {
            return await post(proof);
          } catch (error) {
            const challenge = challengeOf(error);
            if (!challenge || !solveVoteChallenge || solved === MAX_PROOFS_PER_VOTE) throw error;
            onSolving?.();
            proof = await solveVoteChallenge(challenge);
          }
        }
      } catch (error) {
        if (error instanceof ApiError) throw new Error(MESSAGES.votingFailed(error.status), { cause: error });
        throw error;
      }
    },

    /**
     * PUT /api/sessions/{id}/reason (docs/reasons.md): the visitor's one-line reason for its
     * current vote. Answers the reason as stored (profanity masked); a refusal throws an Error with the
     * server's message.
     */
    async submitReason(sessionId: string, reason: string, fingerprint: string): Promise<ReasonResponse> {
      const json: ReasonRequest = { reason };
      try {
        return await request<ReasonResponse>(`/api/sessions/${encodeURIComponent(sessionId)}/reason`, {
          method: 'PUT',
          json,
          headers: { [FINGERPRINT_HEADER]: fingerprint },
        });
      } catch (error) {
        throw new Error((error instanceof ApiError && error.serverMessage) || MESSAGES.reasonFailed, { cause: error });
      }
    },

    /**
     * PUT /api/sessions/{id}/attributes/{index} (docs/attributes.md): the voter's answer to one attribute's
     * question, a logo or null for "Can't say"; a later answer replaces it.
     */
    async answerAttribute(
      sessionId: string,
      attribute: number,
      logoId: string | null,
      fingerprint: string,
    ): Promise<AttributeAnswerResponse> {
      const json: AttributeAnswerRequest = { logoId };
      try {
        return await request<AttributeAnswerResponse>(`/api/sessions/${encodeURIComponent(sessionId)}/attributes/${attribute}`, {
          method: 'PUT',
          json,
          headers: { [FINGERPRINT_HEADER]: fingerprint },
        });
      } catch (error) {
        throw new Error((error instanceof ApiError && error.serverMessage) || MESSAGES.answerFailed, { cause: error });
      }
    },

    /**
     * PUT /api/sessions/{id}/note (docs/reasons.md, "Notes"): the visitor's one-line note on one logo,
     * 'What would you change?'. Answers the note as stored (profanity masked); a refusal throws an Error
     * with the server's message.
     */
    async submitNote(sessionId: string, logoId: string, note: string, fingerprint: string): Promise<NoteResponse> {
      const json: NoteRequest = { logoId, note };
      try {
        return await request<NoteResponse>(`/api/sessions/${encodeURIComponent(sessionId)}/note`, {
          method: 'PUT',
          json,
          headers: { [FINGERPRINT_HEADER]: fingerprint },
        });
      } catch (error) {
        throw new Error((error instanceof ApiError && error.serverMessage) || MESSAGES.noteFailed, { cause: error });
      }
    },

    /** DELETE /api/sessions/{id}/note?logoId=...: removes the visitor's note on that logo; a refusal throws with the server's message. */
    async removeNote(sessionId: string, logoId: string, fingerprint: string): Promise<void> {
      const query = new URLSearchParams({ logoId });
      try {
        await send(`/api/sessions/${encodeURIComponent(sessionId)}/note?${query.toString()}`, {
          method: 'DELETE',
          headers: { [FINGERPRINT_HEADER]: fingerprint },
        });
      } catch (error) {
        throw new Error((error instanceof ApiError && error.serverMessage) || MESSAGES.noteFailed, { cause: error });
      }
    },

    /** GET /api/sessions/{id}/my-notes: the visitor's notes in the poll, one per logo at most. */
    /** GET /api/sessions/{id}/my-attributes (docs/attributes.md): the visitor's answers to the poll's attribute questions. */
    getMyAttributeAnswers(sessionId: string, fingerprint: string): Promise<MyAttributeAnswers> {
      return request(`/api/sessions/${encodeURIComponent(sessionId)}/my-attributes`, { headers: { [FINGERPRINT_HEADER]: fingerprint } });
    },

    getMyNotes(sessionId: string, fingerprint: string): Promise<MyNotes> {
      return request(`/api/sessions/${encodeURIComponent(sessionId)}/my-notes`, { headers: { [FINGERPRINT_HEADER]: fingerprint } });
    },

    /**
     * POST /api/sessions/{id}/reports (docs/moderation.md): the visitor reports the poll. A
     * refusal (the rate limit's 429, a bad note) throws an Error with the server's message.
     */
    async reportPoll(sessionId: string, report: ReportRequest): Promise<ReportResponse> {
      try {
        return await request<ReportResponse>(`/api/sessions/${encodeURIComponent(sessionId)}/reports`, { method: 'POST', json: report });
      } catch (error) {
        throw new Error((error instanceof ApiError && error.serverMessage) || MESSAGES.reportFailed, { cause: error });
      }
    },

    /**
     * GET /api/sessions/{id}/reasons: a logo's reasons, newest first, a page at a time (`next`: the following page's
     * cursor); with the creator token, each with its voter's channel.
     */
    getReasons(sessionId: string, logoId: string, cursor?: string, creatorToken?: string): Promise<ReasonsPage> {
      const query = new URLSearchParams({ logoId, ...(cursor ? { cursor } : {}) });
      return request(`/api/sessions/${encodeURIComponent(sessionId)}/reasons?${query.toString()}`, creatorHeaders(creatorToken));
    },

    /** GET /api/sessions/{id}/themes: what each logo's reasons say (docs/reasons.md, "Themes"), withheld as the reasons are. */
    getThemes(sessionId: string, creatorToken?: string): Promise<ThemesResponse> {
      return request(`/api/sessions/${encodeURIComponent(sessionId)}/themes`, creatorHeaders(creatorToken));
    },

    /** GET /api/sessions/{id}/notes: a logo's notes, newest first, a page at a time (as getReasons). */
    getNotes(sessionId: string, logoId: string, cursor?: string, creatorToken?: string): Promise<NotesPage> {
      const query = new URLSearchParams({ logoId, ...(cursor ? { cursor } : {}) });
      return request(`/api/sessions/${encodeURIComponent(sessionId)}/notes?${query.toString()}`, creatorHeaders(creatorToken));
    },

    /**
     * POST /api/sessions/{id}/results-pass with the creator token (docs/results-visibility.md): the cookie that
     * shows this browser the results on the reads that cannot carry the token (live counts, CSV, reasons).
     */
    async requestResultsPass(sessionId: string, creatorToken: string): Promise<void> {
      await send(`/api/sessions/${encodeURIComponent(sessionId)}/results-pass`, {
        method: 'POST',
        headers: { [CREATOR_TOKEN_HEADER]: creatorToken },
      });
    },

    /** GET /api/sessions/{id}/channels (docs/channels.md): the votes per channel and of the plain link, for the poll's creator. */
    getChannelResults(sessionId: string, creatorToken: string): Promise<ChannelResults> {
      return request(`/api/sessions/${encodeURIComponent(sessionId)}/channels`, { headers: { [CREATOR_TOKEN_HEADER]: creatorToken } });
    },

    /** GET /api/sessions/{id}/attributes (docs/attributes.md): each attribute's answers; each channel's too, for the creator. */
    getAttributeResults(sessionId: string, creatorToken?: string): Promise<AttributeResults> {
      return request(`/api/sessions/${encodeURIComponent(sessionId)}/attributes`, creatorHeaders(creatorToken));
    },

    /** Where the results export is downloaded (GET /api/sessions/{id}/results.csv, docs/export.md). */
    resultsCsvUrl(sessionId: string): string {
      return `${baseUrl}/api/sessions/${encodeURIComponent(sessionId)}/results.csv`;
    },

    /**
     * GET /api/admin/polls, a page at a time, newest first: the first page without `pagePath`, the next
     * one at the `next` path a page gives (absent on the last), and the number of polls in all.
     */
    async listAdminPolls(pagePath = '/api/admin/polls'): Promise<AdminPollPage> {
      const { text, headers } = await send(pagePath);
      const polls = parseResponseJson<AdminPollList>(text);
      const next = nextPagePath(headers);
      return { polls, total: Number(headers.get(TOTAL_COUNT_HEADER) ?? polls.length), ...(next ? { next } : {}) };
    },

    /** GET /api/admin/polls?q=: the polls whose question or logo names hold every word, or the poll with that id (docs/admin.md). */
    async searchAdminPolls(query: string): Promise<AdminPollSearch> {
      const { text, headers } = await send(`/api/admin/polls?${new URLSearchParams({ q: query }).toString()}`);
      return { polls: parseResponseJson<AdminPollList>(text), more: headers.get(SEARCH_MORE_HEADER) === 'true' };
    },

    /** GET /api/admin/polls/{pollId}: the poll with its voting state, results rule, channels and newest reasons. */
    getAdminPollDetails(pollId: string): Promise<AdminPollDetails> {
      return request(`/api/admin/polls/${encodeURIComponent(pollId)}`);
    },

    /** Where the admin downloads a poll's results as CSV (behind the admin credentials). */
    adminResultsCsvUrl(pollId: string): string {
      return `${baseUrl}/api/admin/polls/${encodeURIComponent(pollId)}/results.csv`;
    },

    deleteAdminPoll(pollId: string): Promise<DeletedPoll> {
      return request(`/api/admin/polls/${encodeURIComponent(pollId)}`, { method: 'DELETE' });
    },

    /** GET /api/admin/reports: the polls with reports since their last review, hidden ones first. */
    listReportedPolls(): Promise<ReportedPollList> {
      return request('/api/admin/reports');
    },

    /** PUT /api/admin/reports/{pollId}/review: the admin restores the poll (the reports of `round` no longer count). */
    restoreReportedPoll(pollId: string, round: number): Promise<ReviewedPoll> {
      const json: ReviewRequest = { round };
      return request(`/api/admin/reports/${encodeURIComponent(pollId)}/review`, { method: 'PUT', json });
    },

    /**
     * GET /api/admin/refusals, a page at a time, newest first (the last 30 days): the first page
     * without `pagePath`, the next one at the `next` path a page gives (absent on the last).
     */
    async listUploadRefusals(pagePath = '/api/admin/refusals'): Promise<UploadRefusalPage> {
      const { text, headers } = await send(pagePath);
      const next = nextPagePath(headers);
      return { refusals: parseResponseJson<UploadRefusalList>(text), ...(next ? { next } : {}) };
    },

    /** POST /api/test/moderate (multipart `image`). */
    moderateImage(image: File): Promise<ModerationResult> {
      const body = new FormData();
      body.append(MODERATION_IMAGE_FIELD, image, image.name);
      return request('/api/test/moderate', { method: 'POST', body });
    },

    createTestSession(): Promise<TestSession> {
      return request('/test/fingerprint/session', { method: 'POST' });
    },

    submitTestVote(fingerprint: string, testData: TestVoteRequest['testData']): Promise<TestVoteRecord> {
      const json: TestVoteRequest = { testData };
      return request('/test/fingerprint/vote', { method: 'POST', json, headers: { [FINGERPRINT_HEADER]: fingerprint } });
    },

    listTestVotes(): Promise<TestVoteList> {
      return request('/test/fingerprint/votes');
    },

    /**
     * Where the image of a logo is served (GET /api/logos/{filename}); for the admin, `admin` reads it
     * whatever its poll's state (GET /api/admin/logos/{filename}: the public path refuses a hidden poll's).
     */
    logoUrl(filename: string, admin = false): string {
      return `${baseUrl}${logoPath(filename, admin)}`;
    },

    /**
     * HEAD /api/logos/{filename}, or with `admin` /api/admin/logos/{filename} (the admin page's check that an
     * image can be fetched): true when it
     * can, false when the server says it is gone (404); any other failure (429, 5xx, no answer) is
     * thrown, so the caller can tell "missing" from "could not check now". The browser cache is
     * revalidated, never trusted: the object may have been removed since it was last loaded.
     */
    async logoExists(filename: string, admin = false): Promise<boolean> {
      try {
        await send(logoPath(filename, admin), { method: 'HEAD', cache: 'no-cache' });
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return false;
        throw error;
      }
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
