/**
 * The results page's verdict (docs/confidence.md): one sentence beside 'Total votes: N' ('clear favourite', or how
 * many more votes would settle a lead, and which logos are out of the race), each card's chance to be the
 * favourite, and 'clear lead' or 'too close to call' beside the spec's 'Winner' badge, with a link to the shell's
 * page that explains it; a closed poll's final words. Votes are cast through the API by voters outside the browser.
 */
import type { CreatedSession, CreatedSessionWithCreatorToken, ProofRequired } from '@logovote/contracts';
import { judgePoll, verdictSentence } from '@logovote/contracts/verdict';
import type { Page } from 'playwright-core';
import { apiVoter, createPoll, randomFingerprint, visitPollScreen } from '../support/polls';
import { solveVoteChallenge } from '../support/proof-of-work';
import { testStack } from '../support/stack-env';
import { expectAccessible, expectNoHorizontalOverflow, shoot, useBrowser, visit, type ViewportName } from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();

/**
 * Casts `counts[i]` votes for the poll's logo i, each by a new voter, paying the proof of work the votes service
 * asks of an address's voters past the fifth.
 */
async function castVotes(session: CreatedSession, counts: readonly number[]): Promise<void> {
  const voter = await apiVoter(session.sessionId);
  for (const [index, count] of counts.entries()) {
    for (let i = 0; i < count; i += 1) {
      const logoId = session.logos[index]!.id;
      const fingerprint = randomFingerprint();
      let res = await voter.vote(logoId, fingerprint);
      if (res.status === 428) {
        const { challenge } = (await res.json()) as ProofRequired;
        res = await voter.vote(logoId, fingerprint, await solveVoteChallenge(challenge));
      }
      expect(res.status).toBe(200);
    }
  }
}

/** The results page on a phone or a desktop, with the gateway's CSP bypassed only so axe-core can be injected. */
async function openResults(session: Pick<CreatedSession, 'sessionId'>, viewport: ViewportName): Promise<Page> {
  const page = await browser.newPage(viewport, { bypassCSP: true });
  await visitPollScreen(page, `/results/${session.sessionId}`, 'results');
  await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
  return page;
}

const verdict = (page: Page) => page.getByTestId('confidence-verdict');

const LINK = ' How is this decided?';

/** The chance shown on each card, in ranking order. */
const cardChances = (page: Page) =>
  page
    .getByTestId('result-card')
    .evaluateAll((cards) => cards.map((card) => card.querySelector('[data-testid="favourite-chance"]')?.textContent ?? null));

// The figures: packages/contracts/src/verdict.ts for these counts (its unit tests check the arithmetic).
const CASES = [
  {
    shot: 'no-votes',
    logos: ['logo-ring.png', 'logo-square.png'],
    counts: [0, 0],
    kind: 'no-votes',
    text: 'No votes yet: there is no favourite until people vote.',
    qualifier: null,
    chances: [null, null],
  },
  {
    shot: 'single',
    logos: ['logo-ring.png'],
    counts: [2],
    kind: 'single',
    text: 'Logo A (logo-ring) is the only logo in this poll, so there is nothing to compare it with.',
    qualifier: null,
    chances: [null],
  },
  {
    // The spec's rule crowns Logo A of a 1 to 1 tie; the qualifier says what the sentence says.
    shot: 'tie',
    logos: ['logo-ring.png', 'logo-square.png'],
    counts: [1, 1],
    kind: 'tie',
    text: 'Logo A (logo-ring) and Logo B (logo-square) are tied with 1 vote each: too close to call. More votes will tell.',
    qualifier: 'too close to call',
    chances: ['50% chance to be the favourite', '50% chance to be the favourite'],
  },
  {
    shot: 'three-way-tie',
    logos: ['logo-ring.png', 'logo-square.png', 'logo-triangle.jpg', 'logo-wave.svg'],
    counts: [1, 0, 1, 1],
    kind: 'tie',
    text: 'Logo A (logo-ring), Logo B (logo-triangle) and Logo C (logo-wave) are tied with 1 vote each: too close to call. More votes will tell.',
    qualifier: 'too close to call',
    chances: [
      '30% chance to be the favourite',
      '30% chance to be the favourite',
      '30% chance to be the favourite',
      '8% chance to be the favourite',
    ],
  },
  {
    shot: 'leads',
    logos: ['logo-ring.png', 'logo-square.png', 'logo-triangle.jpg'],
    counts: [1, 3, 0],
    kind: 'leads',
    text: 'Logo A (logo-square) leads; about 40 more votes would likely settle it (at least 4 more).',
    qualifier: 'too close to call',
    chances: ['77% chance to be the favourite', '17% chance to be the favourite', '4% chance to be the favourite'],
  },
  {
    shot: 'clear',
    logos: ['logo-ring.png', 'logo-square.png'],
    counts: [0, 6],
    kind: 'clear',
    text: 'Logo A (logo-square) is the clear favourite: 99% likely to be the most preferred.',
    qualifier: 'clear lead',
    chances: ['99% chance to be the favourite', 'Less than 1% chance to be the favourite'],
  },
] as const;

describe('the verdict', () => {
  it.each(CASES)('says it for $shot, on a phone and a desktop', async ({ shot, logos, counts, kind, text, qualifier, chances }) => {
    const session = await createPoll({ logos });
    await castVotes(session, counts);
    for (const viewport of ['phone', 'desktop'] as const) {
      const page = await openResults(session, viewport);
      await expect(verdict(page).getAttribute('data-verdict')).resolves.toBe(kind);
      await expect(verdict(page).innerText()).resolves.toBe(`${text}${LINK}`);
      await expect(cardChances(page)).resolves.toEqual(chances);
      // Beside the spec's texts, which stay as they are.
      await expect(page.getByTestId('total-votes').innerText()).resolves.toBe(
        `Total votes: ${counts.reduce<number>((sum, n) => sum + n, 0)}`,
      );
      await expect(page.getByTestId('winner-badge').count()).resolves.toBe(kind === 'no-votes' ? 0 : 1);
      if (kind !== 'no-votes') await expect(page.getByTestId('winner-badge').innerText()).resolves.toBe('Winner');
      const qualifiers = page.getByTestId('result-card').first().getByTestId('winner-qualifier');
      await expect(qualifiers.count()).resolves.toBe(qualifier === null ? 0 : 1);
      if (qualifier !== null) await expect(qualifiers.innerText()).resolves.toBe(qualifier);
      await expectAccessible(page);
      await expectNoHorizontalOverflow(page);
      await shoot(page, `results-verdict-${shot}-${viewport}`);
      await page.close();
    }
  });
});

/** The bakery's poll of issue 42: four logos, 20 voters. */
const BAKERY = {
  logos: ['logo-ring.png', 'logo-square.png', 'logo-triangle.jpg', 'logo-wave.svg'],
  logoNames: ['Wheat ear', 'Simple wordmark', 'White croissant', 'Playful'],
  counts: [10, 6, 3, 1],
};
const BAKERY_LABELS = ['Logo A (Wheat ear)', 'Logo B (Simple wordmark)', 'Logo C (White croissant)', 'Logo D (Playful)'];
const OUT_OF_THE_RACE =
  'It is between Logo A (Wheat ear) and Logo B (Simple wordmark): Logo C (White croissant) and Logo D (Playful) are very unlikely to be the favourite.';

/** The text a visitor reads on the page, without the help page's link. */
const pageText = (page: Page) => page.locator('[data-remote="results"]').innerText();

describe('a poll of 20 votes', () => {
  let session: CreatedSessionWithCreatorToken;
  beforeAll(async () => {
    // 20 voters from this one address: a shared network's poll asks them for no proof of work.
    session = await createPoll({ logos: BAKERY.logos, logoNames: BAKERY.logoNames, sharedNetwork: true });
    await castVotes(session, BAKERY.counts);
  }, 120_000);

  it('says which logos are out of the race, and how many more votes: likely and at least, on a phone and a desktop', async () => {
    const text = verdictSentence(judgePoll(BAKERY.counts), BAKERY_LABELS);
    expect(text).toBe(`Logo A (Wheat ear) leads; about 39 more votes would likely settle it (at least 10 more). ${OUT_OF_THE_RACE}`);
    for (const viewport of ['phone', 'desktop'] as const) {
      const page = await openResults(session, viewport);
      await expect(verdict(page).getAttribute('data-verdict')).resolves.toBe('leads');
      await expect(verdict(page).getAttribute('data-voting')).resolves.toBe('open');
      await expect(verdict(page).innerText()).resolves.toBe(`${text}${LINK}`);
      await expect(cardChances(page)).resolves.toEqual([
        '81% chance to be the favourite',
        '16% chance to be the favourite',
        '1% chance to be the favourite',
        'Less than 1% chance to be the favourite',
      ]);
      await expect(page.getByTestId('result-card').first().getByTestId('winner-qualifier').innerText()).resolves.toBe('too close to call');
      await expectAccessible(page);
      await expectNoHorizontalOverflow(page);
      await shoot(page, `results-verdict-out-of-race-${viewport}`);
      await page.close();
    }
  });

  it('gets final words once voting has closed, without asking for more votes, and the open ones again once reopened', async () => {
    const closedText =
      'Voting closed with no clear favourite: Logo A (Wheat ear) led with an 81% chance to be the most preferred. ' +
      'It was between Logo A (Wheat ear) and Logo B (Simple wordmark): Logo C (White croissant) and Logo D (Playful) are very unlikely to be the favourite.';
    expect(verdictSentence(judgePoll(BAKERY.counts, 'closed'), BAKERY_LABELS)).toBe(closedText);
    // The creator closes voting from the results page (the manage link's token).
    const creator = await browser.newPage('desktop', { bypassCSP: true });
    await creator.goto(`${gatewayUrl}/results/${session.sessionId}#manage=${session.creatorToken}`);
    const controls = creator.getByTestId('voting-controls');
    await controls.getByRole('button', { name: 'Close voting' }).click();
    await creator.getByTestId('voting-state-dialog').getByRole('button', { name: 'Close voting' }).click();
    await creator.waitForSelector('[data-testid="confidence-verdict"][data-voting="closed"]', { timeout: 15_000 });
    await creator.getByTestId('voting-state-dialog').waitFor({ state: 'detached' });

    for (const viewport of ['phone', 'desktop'] as const) {
      const page = await openResults(session, viewport);
      await expect(verdict(page).getAttribute('data-voting')).resolves.toBe('closed');
      await expect(verdict(page).innerText()).resolves.toBe(`${closedText}${LINK}`);
      await expect(page.getByTestId('result-card').first().getByTestId('winner-qualifier').innerText()).resolves.toBe('no clear favourite');
      await expect(page.getByTestId('winner-badge').innerText()).resolves.toBe('Winner');
      // Nothing on a closed poll's page asks for more votes.
      await expect(pageText(page)).resolves.not.toMatch(/more votes?\b|share the link/i);
      await expectAccessible(page);
      await expectNoHorizontalOverflow(page);
      await shoot(page, `results-verdict-closed-${viewport}`);
      await page.close();
    }

    // Reopened: the open words again, on the creator's page as it changes and on a fresh one.
    await controls.getByRole('button', { name: 'Reopen voting' }).click();
    await creator.getByTestId('voting-state-dialog').getByRole('button', { name: 'Reopen voting' }).click();
    await creator.waitForSelector('[data-testid="confidence-verdict"][data-voting="open"]', { timeout: 15_000 });
    const open = `${verdictSentence(judgePoll(BAKERY.counts), BAKERY_LABELS)}${LINK}`;
    await expect(verdict(creator).innerText()).resolves.toBe(open);
    await expect(creator.getByTestId('result-card').first().getByTestId('winner-qualifier').innerText()).resolves.toBe('too close to call');
    const visitor = await openResults(session, 'phone');
    await expect(verdict(visitor).innerText()).resolves.toBe(open);
    await visitor.close();
    await creator.close();
  });
});

describe("'How is this decided?'", () => {
  it('opens the explanation, which goes back to the results', async () => {
    const session = await createPoll({ logos: ['logo-ring.png', 'logo-square.png'] });
    const page = await openResults(session, 'desktop');
    await verdict(page).getByRole('link', { name: 'How is this decided?' }).click();
    await page.waitForSelector('[data-page="help-confidence"]', { timeout: 15_000 });
    expect(new URL(page.url()).pathname).toBe('/help/confidence');
    expect(new URL(page.url()).searchParams.get('poll')).toBe(session.sessionId);
    await expect(page.title()).resolves.toBe('How is this decided? · LogoVote');
    await expect(page.getByRole('heading', { level: 1, name: 'How is this decided?' }).count()).resolves.toBe(1);
    await expect(page.getByRole('heading', { name: 'Clear favourite' }).count()).resolves.toBe(1);
    await expect(page.getByRole('heading', { name: 'Too close to call' }).count()).resolves.toBe(1);
    await expect(page.getByRole('heading', { name: 'Out of the race' }).count()).resolves.toBe(1);
    await expect(page.getByRole('heading', { name: 'When voting has closed' }).count()).resolves.toBe(1);
    // Its examples are worded as the results page words them.
    const examples = await page.getByTestId('help-example').allInnerTexts();
    expect(examples).toHaveLength(4);
    expect(examples[2]).toContain(`"${verdictSentence(judgePoll([10, 6, 3, 1]), ['Logo A', 'Logo B', 'Logo C', 'Logo D'])}"`);
    expect(examples[3]).toContain('"Voting closed with no clear favourite: Logo A led with an 81% chance to be the most preferred.');

    await page.getByRole('link', { name: 'Back to results' }).click();
    await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
    expect(new URL(page.url()).pathname).toBe(`/results/${session.sessionId}`);
  });

  it.each(['phone', 'desktop'] as const)('is a page of its own on a %s, served by the gateway like every page', async (viewport) => {
    const res = await fetch(`${gatewayUrl}/help/confidence`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');

    const page = await browser.newPage(viewport, { bypassCSP: true });
    await visit(page, '/help/confidence', '[data-page="help-confidence"]');
    await expectAccessible(page);
    await expectNoHorizontalOverflow(page);
    await shoot(page, `help-confidence-${viewport}`);
    // Opened on its own, it leads home.
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForSelector('[data-remote="create"]', { timeout: 15_000 });
    await page.close();
  });

  it('leaves every other path under /help to the 404 page', async () => {
    const page = await browser.newPage('desktop');
    await visit(page, '/help/nothing-here', '[data-page="not-found"]');
    await expect(page.title()).resolves.toBe('404 Page Not Found');
    await page.close();
  });
});
