import { toast } from '@logovote/ui';
import type { CreatedSessionWithCreatorToken, PaymentPlan } from '@logovote/contracts';
import { analytics, api, HttpError, rememberCreatorToken, type CreateSessionInput, type UploadProgress } from '@logovote/web-client';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';

/** Spec section 4: the creation dialog's steps. */
export type CreationStep = 'creating' | 'plan' | 'email' | 'sent';

export const CREATION_FAILED_FALLBACK = 'Failed to create survey. Please try again.';
export const INCOMPLETE_SESSION = 'Incomplete session data received';
export const EMAIL_FAILED_FALLBACK = 'Failed to send email';
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

  const fail = (description: string) => {
    // Spec section 4: if creation fails, the dialog closes and session data is cleared.
    setOpen(false);
    setSession(null);
    setStep('creating');
    toast({ title: 'Error', description, variant: 'destructive' });
  };

  const creation = useMutation({
    mutationFn: (input: CreateSessionInput) => api.createSession(input, { onProgress: setProgress }),
    onMutate: () => {
      setProgress({ loaded: 0, total: 0 });
      setStep('creating');
      setOpen(true);
    },
    onSuccess: (created) => {
      if (!created?.sessionId) {
        fail(INCOMPLETE_SESSION);
        return;
      }
      setSession(created);
      // The right to close voting stays with this browser (docs/closing.md).
      if (created.creatorToken) rememberCreatorToken(created.sessionId, created.creatorToken);
      setStep('plan');
      analytics.track('survey_created', { session_id: created.sessionId });
    },
    // createSession's errors carry the server's message or 'Failed to create voting session'; anything
    // else (no answer at all) gets the generic text.
    onError: (error) => fail(error.cause instanceof HttpError && error.message ? error.message : CREATION_FAILED_FALLBACK),
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
        description: (error instanceof HttpError && error.serverMessage) || PLAN_FAILED_FALLBACK,
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
      setEmailError(error.message || EMAIL_FAILED_FALLBACK);
    },
    // Spec section 4: the sent step follows the attempt, whether it succeeded or failed.
    onSettled: () => setStep('sent'),
  });

  const start = (input: CreateSessionInput) => creation.mutate(input);

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
    isCreating: creation.isPending,
    isSavingPlan: planChoice.isPending,
    isSending: notify.isPending,
    start,
    choosePlan,
    sendEmail,
    close,
  };
}
