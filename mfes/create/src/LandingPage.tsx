import type { ResultsVisibility } from '@logovote/contracts';
import { Button, Card, CardContent, Checkbox, Label, SpinnerIcon, Textarea, toast, TooltipProvider } from '@logovote/ui';
import { analytics, MAX_FEEDBACK_PROMPT_LENGTH, MAX_LOGOS_PER_POLL } from '@logovote/web-client';
import { defaultLogoName } from '@logovote/contracts/logo-name';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';

import { AttributesChoice } from './AttributesChoice';
import { ChannelsChoice } from './ChannelsChoice';
import { LANDING_TITLE } from './landing-copy';
import { selectLogos } from './logo-selection';
import { unreadableLogos } from './readable-images';
import { LogoPreviews, type ChosenLogo } from './LogoPreviews';
import { mayHaveRememberedPolls } from './remembered-polls-key';
import { ResultsVisibilityChoice } from './ResultsVisibilityChoice';
import { UnreadableFiles } from './UnreadableFiles';
import { UploadArea } from './UploadArea';
import { useCreationFlow } from './use-creation-flow';

import './styles.css';

/** Props the shell passes to the landing screen (route `/`). */
export type LandingPageProps = Record<string, never>;

const loadCreationDialog = () => import(/* webpackChunkName: "creation-dialog" */ './CreationDialog');
const CreationDialog = lazy(loadCreationDialog);
// Beyond the spec (docs/your-polls.md), loaded only for a browser that made polls: a first visit gets nothing more.
const YourPolls = lazy(() => import(/* webpackChunkName: "your-polls" */ './YourPolls'));
const DuplicatePollDialog = lazy(() => import(/* webpackChunkName: "duplicate-poll-dialog" */ './DuplicatePollDialog'));

let nextLogoId = 0;

function LogoMark() {
  return (
    <svg viewBox="0 0 48 48" className="size-12 sm:size-14" aria-hidden="true" focusable="false">
      <rect width="48" height="48" rx="12" className="fill-primary" />
      <path d="M14 25l7 7 13-15" fill="none" stroke="white" strokeWidth="4.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

type CheckboxOptionProps = { checked: boolean; onChange: (checked: boolean) => void; label: string; hint: string };

/** A choice of the creator beside the logos: a checkbox, its label and a line of explanation. */
function CheckboxOption({ checked, onChange, label, hint }: CheckboxOptionProps) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <Checkbox
        id={id}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={`${id}-hint`}
        className="mt-0.5"
      />
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {hint}
        </p>
      </div>
    </div>
  );
}

/** Landing and creation page (spec section 2, route `/`). */
export default function LandingPage(_props: LandingPageProps) {
  const feedbackId = useId();
  const [logos, setLogos] = useState<ChosenLogo[]>([]);
  const [feedbackPrompt, setFeedbackPrompt] = useState('');
  // Beyond the spec (docs/fair-order.md): on unless the creator wants the upload order for everyone.
  const [shuffled, setShuffled] = useState(true);
  // Beyond the spec (docs/api/votes-and-notify.md): off unless the creator expects one shared network.
  const [sharedNetwork, setSharedNetwork] = useState(false);
  // Beyond the spec (docs/results-visibility.md): the spec's results for everyone unless the creator hides them.
  const [resultsVisibility, setResultsVisibility] = useState<ResultsVisibility>('everyone');
  // Beyond the spec (docs/channels.md): none unless the creator names audiences.
  const [channels, setChannels] = useState<string[]>([]);
  // Beyond the spec (docs/attributes.md): none unless the creator asks voters to rate the logos.
  const [attributes, setAttributes] = useState<string[]>([]);
  // Files of the last pick that the browser could not draw, named under the picker.
  const [unreadable, setUnreadable] = useState<string[]>([]);
  const flow = useCreationFlow();
  const getVotesButton = useRef<HTMLButtonElement>(null);
  const creationForm = useRef<HTMLDivElement>(null);
  // The image checks of the picks (readable-images.ts) still running, and the logos they refused: 'Get Votes!'
  // waits for them, so a file the browser cannot draw is never sent.
  const imageChecks = useRef<Promise<void>>(Promise.resolve());
  const refusedLogoIds = useRef(new Set<string>());
  const [madePolls] = useState(mayHaveRememberedPolls);
  const logosRef = useRef(logos);
  logosRef.current = logos;

  useEffect(() => {
    analytics.track('landing_page_viewed');
  }, []);

  // Object URLs of the previews are released when the page goes away.
  useEffect(() => () => logosRef.current.forEach((logo) => URL.revokeObjectURL(logo.previewUrl)), []);

  // The dialog's code is fetched as soon as a poll becomes possible, so it opens without a wait.
  const hasLogos = logos.length > 0;
  useEffect(() => {
    if (hasLogos) void loadCreationDialog();
  }, [hasLogos]);

  const removeLogo = (id: string) => {
    setLogos((current) => {
      const removed = current.find((logo) => logo.id === id);
      if (removed) URL.revokeObjectURL(removed.previewUrl);
      return current.filter((logo) => logo.id !== id);
    });
  };

  const addFiles = (files: File[]) => {
    const selection = selectLogos(logos.length, files);
    if (selection.unsupported > 0) {
      toast({
        title: 'Unsupported file type',
        description: `${selection.unsupported} file(s) are not PNG, JPG, SVG or WebP images and were not added.`,
        variant: 'destructive',
      });
    }
    if (selection.oversize > 0) {
      toast({
        title: 'Files too large',
        description: `${selection.oversize} file(s) exceed the 2MB size limit and were not added.`,
        variant: 'destructive',
      });
    }
    if (selection.excess > 0) {
      toast({
        title: 'Too many files',
        description: `You can only upload up to ${MAX_LOGOS_PER_POLL} logos. ${selection.excess} files were ignored.`,
        variant: 'destructive',
      });
    }
    setUnreadable([]);
    if (selection.accepted.length === 0) return;
    const added = selection.accepted.map((file) => ({
      id: `logo-${(nextLogoId += 1)}`,
      file,
      previewUrl: URL.createObjectURL(file),
      name: defaultLogoName(file.name),
    }));
    setLogos((current) => [...current, ...added]);
    const check = unreadableLogos(added).then((refused) => {
      if (refused.length === 0) return;
      refused.forEach((logo) => {
        refusedLogoIds.current.add(logo.id);
        removeLogo(logo.id);
      });
      setUnreadable(refused.map((logo) => logo.file.name));
    });
    imageChecks.current = Promise.all([imageChecks.current, check]).then(() => undefined);
  };

  const renameLogo = (id: string, name: string) => {
    setLogos((current) => current.map((logo) => (logo.id === id ? { ...logo, name } : logo)));
  };

  const getVotes = async () => {
    if (flow.isCreating) return;
    await imageChecks.current;
    const chosen = logosRef.current.filter((logo) => !refusedLogoIds.current.has(logo.id));
    if (chosen.length === 0) {
      toast({ title: 'No logos uploaded', description: 'Please upload at least one logo to start voting.', variant: 'destructive' });
      return;
    }
    if (chosen.length === 1) {
      // Spec section 5: no request for a single logo.
      toast({ title: 'Congratulations!', description: 'Everyone voted for the only logo you uploaded 😁' });
      return;
    }
    void flow.start({
      logos: chosen.map((logo) => logo.file),
      logoNames: chosen.map((logo) => logo.name),
      feedbackPrompt,
      logoOrder: shuffled ? 'shuffled' : 'fixed',
      sharedNetwork,
      resultsVisibility,
      channels,
      // Without attributes the request is the spec's.
      ...(attributes.length > 0 ? { attributes } : {}),
    });
  };

  return (
    <TooltipProvider>
      <section data-remote="create" className="mx-auto flex w-full max-w-3xl flex-col gap-8 pb-24">
        <header className="flex flex-col items-center gap-4 text-center">
          <div className="flex items-center gap-3">
            <LogoMark />
            <span className="text-2xl font-bold tracking-tight">LogoVote</span>
          </div>
          <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">{LANDING_TITLE}</h1>
          <p className="max-w-xl text-muted-foreground">
            Upload up to {MAX_LOGOS_PER_POLL} logo ideas, share the voting link, and let people pick their favourite. No account needed.
          </p>
        </header>

        {/* A returning creator sees their polls first (docs/your-polls.md). */}
        {(madePolls || flow.session) && (
          <Suspense fallback={null}>
            <YourPolls creationForm={creationForm} />
          </Suspense>
        )}

        {/* The form and 'Get Votes!' share a box: the button floats over the form only, never over 'Your polls'. */}
        <div className="flex flex-col gap-8">
          <Card ref={creationForm} className="scroll-mt-4">
            <CardContent className="flex flex-col gap-6 pt-6">
              {logos.length < MAX_LOGOS_PER_POLL && <UploadArea chosen={logos.length} onFiles={addFiles} />}
              <UnreadableFiles names={unreadable} />
              <LogoPreviews logos={logos} onRemove={removeLogo} onRename={renameLogo} disabled={flow.isCreating} />
              {/* Before the question: from the question, Tab goes on to 'Get Votes!'. */}
              <CheckboxOption
                checked={shuffled}
                onChange={setShuffled}
                label="Show the logos in a different order to each voter"
                hint="Each voter keeps an order of their own, so no logo wins just by being seen first."
              />
              <CheckboxOption
                checked={sharedNetwork}
                onChange={setSharedNetwork}
                label="Most voters share one network (an office, a school, event Wi-Fi)"
                hint="Normally, once a few people have voted from the same network, each further voter's device spends a few seconds on a check that makes voting many times costly. With this on, dozens of people on one network vote without that wait. Leave it off for public polls."
              />
              <ResultsVisibilityChoice value={resultsVisibility} onChange={setResultsVisibility} />
              <ChannelsChoice value={channels} onChange={setChannels} disabled={flow.isCreating} />
              <AttributesChoice value={attributes} onChange={setAttributes} disabled={flow.isCreating} />
              <div className="flex flex-col gap-2">
                <Label htmlFor={feedbackId}>Feedback question (optional)</Label>
                <Textarea
                  id={feedbackId}
                  rows={3}
                  maxLength={MAX_FEEDBACK_PROMPT_LENGTH}
                  placeholder="What would you like voters to think about? e.g. Which logo feels most trustworthy?"
                  value={feedbackPrompt}
                  onChange={(event) => setFeedbackPrompt(event.target.value)}
                />
              </div>
            </CardContent>
          </Card>

          {/*
          Sticky, not fixed: it floats over the form while there is more to scroll, yet never covers the footer. While
          a text field has the focus it stays in its place below the form (styles.css), so it never covers the field
          being typed in.
        */}
          <div data-testid="get-votes-bar" className="pointer-events-none sticky bottom-0 z-40 flex justify-center p-4 sm:p-6">
            <Button
              ref={getVotesButton}
              size="lg"
              onClick={() => void getVotes()}
              // A press keeps the focus where it is: were it to leave a text field, the bar would float again (styles.css)
              // and move the button away between the press and the release.
              onMouseDown={(event) => event.preventDefault()}
              disabled={flow.isCreating}
              // With no logos the button is disabled for assistive technology and looks disabled, but stays
              // focusable and explains itself with the spec's 'No logos uploaded' toast when pressed.
              aria-disabled={!hasLogos || flow.isCreating}
              className="pointer-events-auto h-12 w-full rounded-full px-8 text-base shadow-lg aria-disabled:cursor-not-allowed aria-disabled:opacity-50 sm:w-auto"
            >
              {flow.isCreating && <SpinnerIcon />}
              Get Votes!
            </Button>
          </div>
        </div>

        {(flow.open || flow.session) && (
          <Suspense fallback={null}>
            <CreationDialog flow={flow} opener={getVotesButton} />
          </Suspense>
        )}
        {flow.duplicate && (
          <Suspense fallback={null}>
            <DuplicatePollDialog flow={flow} opener={getVotesButton} />
          </Suspense>
        )}
      </section>
    </TooltipProvider>
  );
}
