import type { Logo, SessionView } from '@logovote/contracts';
import { toast } from '@logovote/ui';
import {
  analytics,
  api,
  getFingerprint,
  ApiError,
  inVoterOrder,
  isPollHidden,
  knownFingerprint,
  seenLogos,
  takeFirstPaintVote,
  unseenLogoCount,
  VIA_PARAM,
  votingStateOf,
} from '@logovote/web-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

import { arrivalChannel } from './arrival-channel';
import { votingClosedMessage } from './voting-closed';

/** Spec section 8: the vote toast's text when the failure is not an answer of the vote call. */
export const VOTE_FAILED_FALLBACK = 'Failed to submit vote';

const sessionKey = (sessionId: string) => ['vote', 'session', sessionId] as const;
const myVoteKey = (sessionId: string, fingerprint: string | undefined) => ['vote', 'my-vote', sessionId, fingerprint] as const;
/** The same key as the fingerprint test page: one value per page load. */
const FINGERPRINT_KEY = ['fingerprint'] as const;

/**
 * The toast's description for a failed vote, exactly as spec section 8 words it: 'Voting failed with
 * status: {status}' (or the token refresh's 'Failed to fetch session data') when the server answered;
 * 'Failed to submit vote' when no answer came.
 */
export function voteErrorText(error: Error): string {
  return error.cause instanceof ApiError && error.message ? error.message : VOTE_FAILED_FALLBACK;
}

export type VotePhase = 'loading' | 'not-found' | 'failed' | 'hidden' | 'closed' | 'confirmation' | 'voting';

/**
 * The voting page's data and state machine (spec sections 2, 4, 7 and 8).
 *
 * Arrival: the session (its anti-forgery token is cached by the API client), the fingerprint and the
 * my-vote check run together; the page shows 'Loading voting session...' until all have answered. A
 * my-vote that says hasVoted shows the confirmation screen; after a vote in this visit the voting view
 * stays, with the 'Done' dialog available.
 *
 * The voted logo is the server's (my-vote) unless this visit set one: on click it is set at once
 * (optimistic), then confirmed by the vote's answer or put back when the vote fails. After each vote the
 * my-vote status is read again, and once it answers hasVoted the page follows it again.
 *
 * A tap on the first paint's Vote button (before this screen's code had arrived) is sent once the page knows
 * the poll and the visitor: unless it is the vote the server already holds, it is a vote (or a changed vote)
 * for the logo the first paint showed.
 */
export function useVoting(sessionId: string) {
  const queryClient = useQueryClient();
  // On arrival the shell has usually made the fingerprint and read my-vote already (bootstrap.tsx): the
  // first render then shows the page the server's answer calls for, not 'Loading' and then the page.
  const fingerprint = useQuery({ queryKey: FINGERPRINT_KEY, queryFn: getFingerprint, initialData: knownFingerprint });
  // A shuffled poll's logos in this voter's own order (docs/fair-order.md); the page shows them in that order.
  // A closed poll shows its final ranking instead, which starts from the upload order as for everyone (rankLogos).
  const inThisVotersOrder = useCallback(
    (poll: SessionView) => (votingStateOf(poll).closed ? poll : inVoterOrder(poll, fingerprint.data)),
    [fingerprint.data],
  );
  const session = useQuery({
    queryKey: sessionKey(sessionId),
    queryFn: () => api.getSession(sessionId),
    // On arrival the page's HTML holds the poll (web-client's page copy).
    initialData: () => api.takePagePoll(sessionId),
    select: inThisVotersOrder,
  });
  const myVote = useQuery({
    queryKey: myVoteKey(sessionId, fingerprint.data),
    queryFn: () => api.getMyVote(sessionId, fingerprint.data ?? ''),
    initialData: () => (fingerprint.data ? api.takeMyVote(sessionId, fingerprint.data) : undefined),
    enabled: fingerprint.isSuccess,
  });

  /** undefined: follow the server's my-vote; a logo id or null: what this visit knows better. */
  const [localVote, setLocalVote] = useState<string | null | undefined>(undefined);
  const [submittingLogoId, setSubmittingLogoId] = useState<string | null>(null);
  /** The vote is held until this device solves a proof of work (many voters on its network address). */
  const [solvingProof, setSolvingProof] = useState(false);
  const [votedThisVisit, setVotedThisVisit] = useState(false);
  /** A returning voter chose 'Change my vote' on the confirmation screen: the voting view shows again. */
  const [changingVote, setChangingVote] = useState(false);

  // Spec section 2: a page-view event on arrival, with the poll and the logo first shown.
  const reported = useRef<string | null>(null);
  useEffect(() => {
    // The fingerprint too: without the gateway's cookie it decides which logo a shuffled poll shows first.
    if (session.isPending || fingerprint.isPending || reported.current === sessionId) return;
    reported.current = sessionId;
    analytics.track('survey_page_viewed', { session_id: sessionId, logo_id: session.data?.logos[0]?.id });
  }, [session.isPending, fingerprint.isPending, session.data, sessionId]);

  // The first arrival's link decides the voter's channel (docs/channels.md): remembered as soon as the poll is known.
  const channels = session.data?.channels;
  const [via] = useState(() => new URLSearchParams(location.search).get(VIA_PARAM));
  useEffect(() => {
    arrivalChannel(sessionId, channels, via);
  }, [sessionId, channels, via]);

  /** Counts vote clicks, so a my-vote answer that a newer vote has overtaken is not followed. */
  const voteSequence = useRef(0);
  const refreshMyVote = async () => {
    const key = myVoteKey(sessionId, fingerprint.data);
    const sequence = voteSequence.current;
    await queryClient.refetchQueries({ queryKey: key, exact: true });
    // The refreshed server answer takes over again once it knows a vote (a failed read counts as not voted).
    if (sequence === voteSequence.current && queryClient.getQueryData<{ hasVoted: boolean }>(key)?.hasVoted) setLocalVote(undefined);
  };

  const vote = useMutation({
    mutationFn: async ({ logoId }: { logoId: string; previous: string | null | undefined; sawAllLogos: boolean }) =>
      api.submitVote(
        sessionId,
        logoId,
        fingerprint.data ?? (await getFingerprint()),
        () => setSolvingProof(true),
        arrivalChannel(sessionId, channels, via),
      ),
    onSuccess: (answer, { logoId, sawAllLogos }) => {
      const recorded = answer?.logoId ?? logoId;
      setLocalVote(recorded);
      setVotedThisVisit(true);
      analytics.track('vote_confirmed', { session_id: sessionId, logo_id: recorded, saw_all_logos: sawAllLogos });
      void refreshMyVote();
    },
    onError: (error, { previous }) => {
      setLocalVote(previous);
      const closedMessage = votingClosedMessage(error);
      toast({ title: 'Error', description: closedMessage ?? voteErrorText(error), variant: 'destructive' });
      // The poll closed (or was hidden pending review) meanwhile: the page turns to its final results (or the notice).
      if (closedMessage) void session.refetch();
    },
    onSettled: () => {
      setSubmittingLogoId(null);
      setSolvingProof(false);
    },
  });

  const serverVote = myVote.data?.hasVoted ? myVote.data.logoId : null;
  const votedLogoId = localVote === undefined ? serverVote : localVote;

  /**
   * Votes for `logo` (spec section 5: voting requires a current logo); `sawAllLogos`, whether the voter
   * had seen every logo, goes with the vote's analytics event.
   */
  const castVote = (logo: Logo | undefined, sawAllLogos: boolean) => {
    if (!logo || submittingLogoId !== null || logo.id === votedLogoId) return;
    voteSequence.current += 1;
    setSubmittingLogoId(logo.id);
    setLocalVote(logo.id);
    vote.mutate({ logoId: logo.id, previous: localVote, sawAllLogos });
  };

  // Taken once this screen has replaced the first paint, so no tap on it can come later; before the browser
  // paints, so the button goes from the first paint's 'Submitting...' to the screen's without a 'Vote' between.
  const [firstPaintVote, setFirstPaintVote] = useState<string>();
  useLayoutEffect(() => setFirstPaintVote(takeFirstPaintVote(sessionId)), [sessionId]);

  let phase: VotePhase;
  if (session.isPending || fingerprint.isPending || (fingerprint.isSuccess && myVote.isPending)) phase = 'loading';
  else if (session.isError) phase = session.error instanceof ApiError && session.error.status === 404 ? 'not-found' : 'failed';
  // Hidden pending review (docs/moderation.md): nothing of the poll is shown, closed or not.
  else if (session.data && isPollHidden(session.data)) phase = 'hidden';
  else if (session.data && votingStateOf(session.data).closed) phase = 'closed';
  else if (myVote.data?.hasVoted && !votedThisVisit && !changingVote) phase = 'confirmation';
  else phase = 'voting';

  const ready = phase === 'voting' || phase === 'confirmation';
  useLayoutEffect(() => {
    if (!ready || firstPaintVote === undefined) return;
    setFirstPaintVote(undefined);
    const logos = session.data?.logos ?? [];
    const logo = logos.find((each) => each.id === firstPaintVote);
    if (!logo || logo.id === serverVote) return;
    if (serverVote !== null) setChangingVote(true);
    // The first paint shows one logo: the voter has seen every logo if it had seen the others on earlier visits.
    const unseen = unseenLogoCount(
      logos.map((each) => each.id),
      seenLogos(sessionId),
      logo.id,
    );
    castVote(logo, unseen === 0);
  });

  return {
    phase,
    session: session.data,
    retry: () => void session.refetch(),
    votedLogoId,
    /** The logo the server says this visitor voted for (the confirmation screen's). */
    serverVotedLogoId: serverVote,
    /**
     * The reason the server holds for the vote this visit arrived with; a vote of this visit is a change,
     * which drops it (docs/reasons.md).
     */
    givenReason: votedThisVisit ? undefined : myVote.data?.reason,
    changingVote,
    /** 'Change my vote': from the confirmation screen back to the logos, the current vote marked. */
    changeVote: () => setChangingVote(true),
    isSubmitting: submittingLogoId !== null,
    solvingProof,
    votedThisVisit,
    castVote,
    /** Spec section 7: 'vote submitted' is reported on Next, with the logo being left. */
    reportNext: (logo: Logo | undefined) => analytics.track('vote_submitted', { session_id: sessionId, logo_id: logo?.id }),
  };
}
