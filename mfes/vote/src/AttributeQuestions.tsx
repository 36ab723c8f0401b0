import type { Logo, MyAttributeAnswers } from '@logovote/contracts';
import { attributeQuestion } from '@logovote/contracts/attribute-question';
import { logoPath } from '@logovote/contracts/logo-path';
import { Button, CheckIcon, cn, LogoOnBackdrop, SpinnerIcon } from '@logovote/ui';
import { api, getFingerprint } from '@logovote/web-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';

import { scrollClearOfBar } from './clear-of-bar';
import { freshOrders, stepAfter, type AttributeStep } from './attribute-steps';

type AttributeQuestionsProps = { sessionId: string; attributes: readonly string[]; logos: readonly Logo[] };

/** A voter's answer to one question: a logo's id, or null for "Can't say". */
type Answer = string | null;

/**
 * Brief-fit ratings (docs/attributes.md): after the vote, one forced choice per attribute the creator named
 * ("Which looks most trustworthy?"), one tap each, the logos in an order of their own per question, or
 * "Can't say", or "Skip the rest". An answer is sent as it is tapped; a later one replaces it, so 'Change your
 * answers' goes through them again with the voter's answers marked. A voter who answered before (on another
 * visit) starts there rather than at the first question. A poll without attributes never loads this.
 */
/** The visitor's answers in a poll (GET my-attributes), kept as answers are given for the screen that shows them next. */
const myAnswersKey = (sessionId: string) => ['vote', 'my-attributes', sessionId];

export default function AttributeQuestions(props: AttributeQuestionsProps) {
  const mine = useQuery({
    queryKey: myAnswersKey(props.sessionId),
    queryFn: async () => api.getMyAttributeAnswers(props.sessionId, await getFingerprint()),
    retry: false,
    refetchOnWindowFocus: false,
  });
  // Known before the questions show, so a voter who answered is not asked from the start; unknown, asked.
  if (mine.isPending) return null;
  return <Questions {...props} given={mine.data?.answers ?? []} />;
}

function Questions({
  sessionId,
  attributes,
  logos,
  given: earlier,
}: AttributeQuestionsProps & { given: { attribute: number; logoId: Answer }[] }) {
  const [orders] = useState(() => freshOrders(logos, attributes.length));
  const [step, setStep] = useState<AttributeStep>(earlier.length > 0 ? { done: 'answered' } : { question: 0 });
  const [answers, setAnswers] = useState<ReadonlyMap<number, Answer>>(
    () => new Map(earlier.map((answer) => [answer.attribute, answer.logoId])),
  );
  const queryClient = useQueryClient();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const box = useRef<HTMLElement>(null);
  const send = useMutation({
    mutationFn: async ({ question, answer }: { question: number; answer: Answer }) =>
      api.answerAttribute(sessionId, question, answer, await getFingerprint()),
    onSuccess: (given) => {
      setAnswers((known) => new Map(known).set(given.attribute, given.logoId));
      queryClient.setQueryData<MyAttributeAnswers>(myAnswersKey(sessionId), (mine) => ({
        answers: [...(mine?.answers ?? []).filter((answer) => answer.attribute !== given.attribute), given].sort(
          (a, b) => a.attribute - b.attribute,
        ),
      }));
      // A skip while the answer was on its way stands.
      setStep((now) => ('question' in now && now.question === given.attribute ? stepAfter(given.attribute, attributes.length) : now));
    },
  });
  const question = 'question' in step ? step.question : undefined;

  // Each new question is announced and takes the keyboard, as a new screen would, and is shown whole, clear of
  // the bottom bar, so its last buttons are not under it.
  const [moved, setMoved] = useState(false);
  useEffect(() => {
    if (!moved) return;
    heading.current?.focus({ preventScroll: true });
    if (box.current) scrollClearOfBar(box.current);
  }, [moved, question]);

  const answer = (given: Answer) => {
    if (question === undefined || send.isPending) return;
    setMoved(true);
    send.mutate({ question, answer: given });
  };

  if (question === undefined) {
    return (
      <section
        data-testid="attribute-step"
        className="mx-auto flex w-full max-w-md flex-wrap items-center justify-center gap-x-2 text-center"
      >
        <p role="status" data-testid="attribute-done" className="text-sm text-muted-foreground">
          {'done' in step && step.done === 'skipped'
            ? answers.size > 0
              ? 'Thanks: the answers you gave are in.'
              : 'No problem: the questions are skipped.'
            : 'Thanks for your answers.'}
        </p>
        <Button
          variant="link"
          data-testid="attribute-restart"
          className="h-11 px-2 text-sm"
          onClick={() => {
            send.reset();
            setStep({ question: 0 });
          }}
        >
          {answers.size > 0 ? 'Change your answers' : 'Answer them'}
        </Button>
      </section>
    );
  }

  const name = attributes[question] ?? '';
  const order = orders[question] ?? logos;
  const given = answers.get(question);
  return (
    <section
      ref={box}
      data-testid="attribute-step"
      aria-labelledby={headingId}
      aria-busy={send.isPending}
      className="mx-auto flex w-full max-w-md flex-col gap-3 rounded-xl border border-border bg-card p-4 shadow-sm"
    >
      <p className="text-sm text-muted-foreground" data-testid="attribute-progress">
        A quick question about the logos: {question + 1} of {attributes.length}
      </p>
      <h2
        id={headingId}
        ref={heading}
        tabIndex={-1}
        data-testid="attribute-question"
        className="text-lg font-semibold text-balance break-words outline-none"
      >
        {attributeQuestion(name)}
      </h2>
      {/* Three logos side by side, two or four in pairs: one screen on a phone. */}
      <div role="group" aria-labelledby={headingId} className={cn('grid gap-2', order.length === 3 ? 'grid-cols-3' : 'grid-cols-2')}>
        {order.map((logo) => {
          const chosen = given === logo.id;
          const sending = send.isPending && send.variables?.answer === logo.id;
          return (
            <button
              key={logo.id}
              type="button"
              data-testid="attribute-logo"
              data-logo-id={logo.id}
              aria-pressed={chosen}
              aria-disabled={send.isPending}
              onClick={() => answer(logo.id)}
              className={cn(
                'flex min-h-11 flex-col items-center gap-1.5 rounded-lg border border-border bg-background p-2 text-sm outline-none transition-shadow',
                'hover:border-muted-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2',
                chosen && 'border-primary ring-2 ring-primary hover:border-primary',
                send.isPending && 'cursor-wait',
              )}
            >
              <LogoOnBackdrop backdrop={logo.backdrop} followsChoice className="aspect-square w-full max-w-24 rounded-md p-1.5">
                <img src={logoPath(logo.filename)} alt="" decoding="async" draggable={false} className="size-full object-contain" />
              </LogoOnBackdrop>
              <span className="flex max-w-full items-center gap-1 font-medium break-words">
                {sending ? <SpinnerIcon className="shrink-0" /> : chosen && <CheckIcon className="shrink-0 text-primary" />}
                {logo.name}
              </span>
            </button>
          );
        })}
      </div>
      {send.error && (
        <p role="alert" data-testid="attribute-error" className="text-sm text-destructive">
          {send.error.message}
        </p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Button
          variant="outline"
          data-testid="attribute-cant-say"
          aria-pressed={given === null}
          aria-disabled={send.isPending}
          className="rounded-full"
          onClick={() => answer(null)}
        >
          {send.isPending && send.variables?.answer === null && <SpinnerIcon />}
          Can&apos;t say
        </Button>
        <Button
          variant="link"
          data-testid="attribute-skip"
          className="h-11 px-2 text-sm"
          onClick={() => {
            send.reset();
            setStep({ done: 'skipped' });
          }}
        >
          Skip the rest
        </Button>
      </div>
    </section>
  );
}
