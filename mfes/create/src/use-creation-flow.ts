import { toast } from '@logovote/ui';
import type { CreatedSessionWithCreatorToken, PaymentPlan } from '@logovote/contracts';
import { analytics, api, ApiError, rememberCreatorToken, type CreateSessionInput, type UploadProgress } from '@logovote/web-client';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';

import { pollContentHash } from './poll-content-hash';
import type { RememberedPoll } from './remembered-polls';

// This browser's list of its polls, with the validation it needs, comes with the first poll made.
const loadRememberedPolls = () => import(/* webpackChunkName: "remembered-polls" */ './remembered-polls');

/** Spec section 4: the creation dialog's steps. */
export type CreationStep = 'creating' | 'plan' | 'email' | 'sent';

export const CREATION_FAILED_FALLBACK = 'Failed to create survey. Please try again.';
export const INCOMPLETE_SESSION = 'Incomplete session data received';
export const EMAIL_FAILED_FALLBACK = 'Failed to send email';
/** An address refused as malformed, in plain words (the server's answer names its field: 'email: ...'). */
export const EMAIL_INVALID = "That doesn't look like an e-mail address. Please check it (for example you@example.com) and try again.";
const PLAN_FAILED_FALLBACK = 'Failed to save your plan. Please try again.';

export type CreationFlow = ReturnType<typeof useCreationFlow>;

/**
 * The creation dialog's state machine (spec sections 4, 5 and 8): creating → plan → email → sent.
 * It lives in the landing page (not in the lazily loaded dialog) so the upload starts on the click.
 */
export function useCreationFlow() {
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState<CreationStep>('creating');
  const [session, setSession] = useState<CreatedSessionWithCreatorToken | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [plan, setPlan] = useState<PaymentPlan>('free');
  const [email, setEmail] = useState('');
  const [emailSent, setEmailSent] = useState(false);
  const [emailError, setEmailError] = useState('');
  const emailRequiredToast = useRef<{ dismiss: () => void } | null>(null);
  // Beyond the spec (docs/your-polls.md): the poll made earlier from the same logos and question, offered
  // instead of a duplicate, and the creation it would replace.
  const [duplicate, setDuplicate] = useState<{ poll: RememberedPoll; input: CreateSessionInput; contentHash: string } | null>(null);
  const [checking, setChecking] = useState(false);

  const fail = (description: string) => {
    // Spec section 4: if creation fails, the dialog closes and session data is cleared.
    setOpen(false);
    setSession(null);
    setStep('creating');
    toast({ title: 'Error', description, variant: 'destructive' });
  };

  const creation = useMutation({
    mutationFn: ({ input }: { input: CreateSessionInput; contentHash?: string }) => api.createSession(input, { onProgress: setProgress }),
    onMutate: () => {
      setProgress({ loaded: 0, total: 0 });
      setStep('creating');
      setOpen(true);
    },
    onSuccess: (created, { input, contentHash }) => {
      if (!created?.sessionId) {
        fail(INCOMPLETE_SESSION);
        return;
      }
      setSession(created);
      // The right to close voting stays with this browser (docs/closing.md).
      if (created.creatorToken) rememberCreatorToken(created.sessionId, created.creatorToken);
      // So is the poll itself: closing the dialog at any step leaves it under 'Your polls'.
      const question = input.feedbackPrompt?.trim();
      void loadRememberedPolls().then(({ rememberPoll }) =>
        rememberPoll({
          sessionId: created.sessionId,
          votingUrl: created.votingUrl,
          resultsUrl: created.resultsUrl,
          ...(question ? { question } : {}),
          createdAt: new Date().toISOString(),
          ...(contentHash ? { contentHash } : {}),
          finished: false,
        }),
      );
      setStep('plan');
      analytics.track('survey_created', { session_id: created.sessionId });
    },
    // createSession's errors carry the server's message or 'Failed to create voting session'; anything
    // else (no answer at all) gets the generic text.
    onError: (error) => fail(error.cause instanceof ApiError && error.message ? error.message : CREATION_FAILED_FALLBACK),
    onSettled: () => setProgress(null),
  });

  const planChoice = useMutation({
    mutationFn: ({ sessionId, choice }: { sessionId: string; choice: PaymentPlan }) => api.setPaymentPlan(sessionId, choice),
    onSuccess: ({ paymentPlan }) => {
      if (paymentPlan !== 'free') {
        toast({
          title: 'Thank you.',
          description: "LogoVote is in early access: you won't be charged, and the data usage requirements of your plan are respected.",
        });
      }
      setStep('email');
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: (error instanceof ApiError && error.serverMessage) || PLAN_FAILED_FALLBACK,
        variant: 'destructive',
      }),
  });

  const notify = useMutation({
    // With the creator token, the e-mail also carries the private manage link.
    mutationFn: ({ sessionId, address, creatorToken }: { sessionId: string; address: string; creatorToken?: string }) =>
      api.sendLinksByEmail(sessionId, address, creatorToken),
    onSuccess: () => {
      setEmailSent(true);
      setEmailError('');
    },
    onError: (error) => {
      setEmailSent(false);
      setEmailError(error.cause instanceof ApiError && error.cause.status === 400 ? EMAIL_INVALID : error.message || EMAIL_FAILED_FALLBACK);
    },
    // Spec section 4: the sent step follows the attempt, whether it succeeded or failed.
    onSettled: (_answer, _error, { sessionId }) => {
      setStep('sent');
      void loadRememberedPolls().then(({ markPollFinished }) => markPollFinished(sessionId));
    },
  });

  /**
   * Starts creation, unless this browser made a poll from the same logos and question and left the dialog
   * before its last step: that poll is offered instead (`duplicate`), with 'Make a new poll anyway'.
   */
  const start = async (input: CreateSessionInput) => {
    if (checking) return;
    setChecking(true);
    try {
      // A check that cannot be made (no Web Crypto, a file that cannot be read, the list's code not loaded)
      // takes nothing for a duplicate.
      const contentHash = await pollContentHash(input.logos, input.feedbackPrompt ?? '').catch(() => undefined);
      const earlier = contentHash
        ? await loadRememberedPolls().then(
            ({ unfinishedPollWithContent }) => unfinishedPollWithContent(contentHash),
            () => undefined,
          )
        : undefined;
      if (earlier && contentHash) setDuplicate({ poll: earlier, input, contentHash });
      else creation.mutate({ input, contentHash });
    } finally {
      setChecking(false);
    }
  };

  const createAnyway = () => {
    if (!duplicate) return;
    setDuplicate(null);
    creation.mutate({ input: duplicate.input, contentHash: duplicate.contentHash });
  };

  const choosePlan = () => {
    if (session) planChoice.mutate({ sessionId: session.sessionId, choice: plan });
  };

  const sendEmail = () => {
    const address = email.trim();
    if (!address) {
      emailRequiredToast.current = toast({
        title: 'Email required',
        description: 'Please enter your email address.',
        variant: 'destructive',
      });
      return;
    }
    emailRequiredToast.current?.dismiss();
    emailRequiredToast.current = null;
    if (session) notify.mutate({ sessionId: session.sessionId, address, creatorToken: session.creatorToken });
  };

  /** Back from 'Email Not Sent' to the e-mail step, the address kept for correcting. */
  const retryEmail = () => {
    setStep('email');
    setEmailError('');
    notify.reset();
  };

  /** Spec section 4: closing resets the step to creating, clears the e-mail and resets the plan to free. */
  const close = () => {
    setOpen(false);
    setStep('creating');
    setEmail('');
    setPlan('free');
    setEmailSent(false);
    setEmailError('');
    planChoice.reset();
    notify.reset();
  };

  return {
    open,
    step,
    session,
    progress,
    plan,
    setPlan,
    email,
    setEmail,
    emailSent,
    emailError,
    isCreating: creation.isPending || checking,
    isSavingPlan: planChoice.isPending,
    isSending: notify.isPending,
    start,
    duplicate: duplicate?.poll ?? null,
    createAnyway,
    dismissDuplicate: () => setDuplicate(null),
    choosePlan,
    sendEmail,
    retryEmail,
    close,
  };
}
