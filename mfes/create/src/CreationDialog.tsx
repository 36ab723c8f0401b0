import type { PaymentPlan } from '@logovote/contracts';
import {
  AlertCircleIcon,
  Button,
  CheckIcon,
  cn,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  Input,
  Label,
  MailIcon,
  navigate,
  Progress,
  SpinnerIcon,
} from '@logovote/ui';
import { manageUrl } from '@logovote/web-client';
import { useId, useRef, useState, type FormEvent, type RefObject } from 'react';

import { CopyableLink, PollLinks } from './PollLinks';
import { EMAIL_INVALID, type CreationFlow } from './use-creation-flow';

const PLANS: { value: PaymentPlan; name: string; price: string; detail: string }[] = [
  {
    value: 'free',
    name: 'Free',
    price: '$0',
    detail: 'You consent to your logos, feedback and discussions being used as AI training data.',
  },
  { value: 'paid', name: 'Paid', price: '$0.99 per survey', detail: 'Your data is kept private while the survey exists.' },
  { value: 'bulk', name: 'Bulk', price: '$4.99 for 20 surveys', detail: 'The best value when you test many logo ideas.' },
];

function CreatingStep({ flow }: { flow: CreationFlow }) {
  const percent = flow.progress?.total ? (flow.progress.loaded / flow.progress.total) * 100 : 0;
  const uploaded = percent >= 100;
  return (
    <>
      <DialogHeader>
        <DialogTitle>Creating your poll</DialogTitle>
        <DialogDescription>{uploaded ? 'Checking your logos…' : 'Uploading your logos…'}</DialogDescription>
      </DialogHeader>
      <div className="flex flex-col gap-2" data-testid="upload-progress">
        <Progress value={percent} aria-label="Upload progress" />
        <p className="flex items-center gap-2 text-sm text-muted-foreground" aria-live="polite">
          <SpinnerIcon className="size-4" />
          {uploaded ? 'Upload complete' : `${Math.round(percent)}% uploaded`}
        </p>
      </div>
    </>
  );
}

function PlanStep({ flow }: { flow: CreationFlow }) {
  const groupName = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    flow.choosePlan();
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>Your poll is ready! Choose a plan</DialogTitle>
        <DialogDescription>No payment is taken during early access.</DialogDescription>
      </DialogHeader>
      <fieldset className="flex flex-col gap-3">
        <legend className="sr-only">Plan</legend>
        {PLANS.map((plan) => (
          <label
            key={plan.value}
            className={cn(
              'flex cursor-pointer items-start gap-3 rounded-lg border border-border p-4 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
              flow.plan === plan.value && 'border-primary bg-primary/5',
            )}
          >
            <input
              type="radio"
              name={groupName}
              value={plan.value}
              checked={flow.plan === plan.value}
              // Each step puts the keyboard focus on its first control (the previous step's controls are gone).
              autoFocus={flow.plan === plan.value}
              onChange={() => flow.setPlan(plan.value)}
              className="mt-1 size-4 accent-primary"
            />
            <span className="flex flex-col gap-0.5">
              <span className="font-medium">
                {plan.name} <span className="font-normal text-muted-foreground">· {plan.price}</span>
              </span>
              <span className="text-sm text-muted-foreground">{plan.detail}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {flow.session && (
        <PollLinks votingUrl={flow.session.votingUrl} resultsUrl={flow.session.resultsUrl} channels={flow.session.channels} />
      )}
      <DialogFooter>
        <Button type="submit" disabled={flow.isSavingPlan}>
          {flow.isSavingPlan && <SpinnerIcon />}
          Continue
        </Button>
      </DialogFooter>
    </form>
  );
}

function goToPoll(votingUrl: string) {
  navigate(votingUrl);
}

function EmailStep({ flow }: { flow: CreationFlow }) {
  const inputId = useId();
  const errorId = useId();
  const input = useRef<HTMLInputElement>(null);
  // The input's own e-mail type check (spec section 5), said in words under the field before anything is sent.
  const [invalid, setInvalid] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (flow.email.trim() && input.current?.validity.typeMismatch) {
      setInvalid(true);
      input.current.focus();
      return;
    }
    setInvalid(false);
    flow.sendEmail();
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>Get your links by e-mail</DialogTitle>
        <DialogDescription>We&apos;ll send you the voting link to share and the link to your results.</DialogDescription>
      </DialogHeader>
      <div className="flex flex-col gap-2">
        <Label htmlFor={inputId}>Email address</Label>
        <Input
          ref={input}
          id={inputId}
          type="email"
          autoComplete="email"
          autoFocus
          placeholder="you@example.com"
          value={flow.email}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? errorId : undefined}
          onChange={(event) => {
            flow.setEmail(event.target.value);
            setInvalid(false);
          }}
        />
        {invalid && (
          <p id={errorId} data-testid="email-invalid" className="text-sm font-medium text-destructive">
            {EMAIL_INVALID}
          </p>
        )}
      </div>
      {flow.session && (
        <PollLinks votingUrl={flow.session.votingUrl} resultsUrl={flow.session.resultsUrl} channels={flow.session.channels} />
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={() => flow.session && goToPoll(flow.session.votingUrl)}>
          View Poll
        </Button>
        <Button type="submit" disabled={flow.isSending}>
          {flow.isSending ? <SpinnerIcon /> : <MailIcon />}
          {flow.isSending ? 'Sending...' : 'Send Links'}
        </Button>
      </DialogFooter>
    </form>
  );
}

function SentStep({ flow }: { flow: CreationFlow }) {
  const session = flow.session;
  return (
    <>
      <DialogHeader>
        <DialogTitle className="flex items-center justify-center gap-2 sm:justify-start">
          {flow.emailSent ? <CheckIcon className="size-5 text-green-700" /> : <AlertCircleIcon className="size-5 text-destructive" />}
          {flow.emailSent ? 'Email Sent!' : 'Email Not Sent'}
        </DialogTitle>
        <DialogDescription asChild>
          <div className="flex flex-col gap-1">
            {flow.emailSent ? (
              <p>We sent the voting and results links to {flow.email.trim()}.</p>
            ) : (
              <>
                <p data-testid="email-error" className="font-medium text-destructive">
                  {flow.emailError}
                </p>
                <p>There was an issue sending the email. Please copy the links below.</p>
              </>
            )}
          </div>
        </DialogDescription>
      </DialogHeader>
      {session && (
        <div className="flex flex-col gap-3">
          <PollLinks votingUrl={session.votingUrl} resultsUrl={session.resultsUrl} channels={session.channels} />
          {session.creatorToken && (
            <>
              <CopyableLink label="Manage link" url={manageUrl(session.resultsUrl, session.creatorToken)} />
              <p className="-mt-1.5 text-xs text-muted-foreground">Keep it private: it lets whoever has it close and reopen voting.</p>
            </>
          )}
        </div>
      )}
      <DialogFooter>
        {!flow.emailSent && (
          <Button variant="outline" onClick={flow.retryEmail}>
            Try again
          </Button>
        )}
        <Button autoFocus onClick={() => session && goToPoll(session.votingUrl)}>
          Start Voting Now
        </Button>
      </DialogFooter>
    </>
  );
}

/** The creation dialog (spec section 4), loaded on demand. */
export default function CreationDialog({ flow, opener }: { flow: CreationFlow; opener: RefObject<HTMLButtonElement | null> }) {
  const creating = flow.step === 'creating';
  return (
    <Dialog
      open={flow.open}
      onOpenChange={(open) => {
        if (!open && !creating) flow.close();
      }}
    >
      <DialogContent
        data-testid="creation-dialog"
        data-step={flow.step}
        showClose={!creating}
        // While the logos upload there is nothing to close: the dialog leaves by itself on success or failure.
        onEscapeKeyDown={(event) => creating && event.preventDefault()}
        onInteractOutside={(event) => creating && event.preventDefault()}
        // Back to 'Get Votes!': it was disabled while the poll was made, so the element focused before the dialog is gone.
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          opener.current?.focus();
        }}
      >
        {flow.step === 'creating' && <CreatingStep flow={flow} />}
        {flow.step === 'plan' && <PlanStep flow={flow} />}
        {flow.step === 'email' && <EmailStep flow={flow} />}
        {flow.step === 'sent' && <SentStep flow={flow} />}
      </DialogContent>
    </Dialog>
  );
}
