/**
 * Brief-fit ratings (docs/attributes.md): a creator picks attributes in the create form; a voter answers one
 * question per attribute after the vote (and skips the rest); the results page's grid shows each logo's share
 * of the answers, the call, and the sentence where an attribute's leader is not the poll's, per channel for the
 * creator. On a phone and a desktop.
 */
import type { AttributeResults, CreatedSession, CreatedSessionWithCreatorToken, ProofRequired } from '@logovote/contracts';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../support/browser';
import { apiVoter, createPoll, randomFingerprint, visitPollScreen } from '../support/polls';
import { solveVoteChallenge } from '../support/proof-of-work';
import { testStack } from '../support/stack-env';
import {
  expectAccessible,
  expectNoHorizontalOverflow,
  expectVoteButton,
  fixture,
  shoot,
  useBrowser,
  visit,
  type ViewportName,
} from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();
const LOGOS = ['logo-ring.png', 'logo-square.png', 'logo-triangle.jpg'];
const NAMES = ['Ring', 'Square', 'Triangle'];

const attributeResults = async (sessionId: string, creatorToken?: string) =>
  (await (
    await fetch(`${gatewayUrl}/api/sessions/${sessionId}/attributes`, { headers: creatorToken ? { 'X-Creator-Token': creatorToken } : {} })
  ).json()) as AttributeResults;

/** A voter through the API: votes for `logoId` (through `via`) and answers each attribute in `answers`. */
async function voteAndAnswer(session: CreatedSession, logoId: string, answers: (string | null)[], via?: string): Promise<void> {
  const voter = await apiVoter(session.sessionId);
  const fingerprint = randomFingerprint();
  let res = await voter.vote(logoId, fingerprint, undefined, via);
  if (res.status === 428) {
    const { challenge } = (await res.json()) as ProofRequired;
    res = await voter.vote(logoId, fingerprint, await solveVoteChallenge(challenge), via);
  }
  expect(res.status).toBe(200);
  for (const [attribute, answer] of answers.entries())
    expect((await voter.answerAttribute(attribute, answer, fingerprint)).status).toBe(200);
}

describe('the results grid', () => {
  let session: CreatedSessionWithCreatorToken;
  beforeAll(async () => {
    session = await createPoll({
      logos: LOGOS,
      logoNames: NAMES,
      attributes: ['Trustworthy', 'Fits a neighbourhood bakery'],
      channels: ['Newsletter'],
      sharedNetwork: true,
    });
    const [ring, square, triangle] = session.logos.map((logo) => logo.id) as [string, string, string];
    const newsletter = session.channels![0]!.id;
    // Ring is picked most often, but Square looks most trustworthy; the bakery fit is too close to call.
    for (let i = 0; i < 6; i++) await voteAndAnswer(session, ring, [square, i % 2 ? ring : triangle], i < 3 ? newsletter : undefined);
    for (let i = 0; i < 3; i++) await voteAndAnswer(session, square, [square, null]);
    await voteAndAnswer(session, triangle, [null]);
  }, 180_000);

  it.each(['phone', 'desktop'] as ViewportName[])(
    'shows the shares, the calls and the differing leader, per channel for the creator (%s)',
    async (viewport) => {
      const page = await browser.newPage(viewport, { bypassCSP: true });
      await visitPollScreen(page, `/results/${session.sessionId}#manage=${session.creatorToken}`, 'results');
      await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
      const grid = page.getByTestId('attribute-results');
      await grid.getByTestId('attribute-row').first().waitFor({ timeout: 15_000 });
      const rows = grid.getByRole('tabpanel').getByTestId('attribute-row');
      await expect(rows.evaluateAll((items) => items.map((item) => item.getAttribute('data-call')))).resolves.toEqual([
        'clear',
        'too close',
      ]);
      // Square (Logo B, 3 votes) got 9 of 9 trustworthy answers; 1 voter could not say.
      const trustworthy = rows.first();
      await expect(trustworthy.getByTestId('attribute-cell').allInnerTexts()).resolves.toEqual([
        '0%',
        expect.stringMatching(/^100%\s*clear$/),
        '0%',
      ]);
      await expect(trustworthy.locator('th').innerText()).resolves.toMatch(/Trustworthy\s+9 answers, 1 can't say/);
      await expect(grid.getByTestId('attribute-sentence').allInnerTexts()).resolves.toEqual([
        expect.stringMatching(/^Logo A is picked most often, but Logo B looks most trustworthy: \d+% likely$/),
      ]);
      await expectNoHorizontalOverflow(page);
      await expectAccessible(page);
      await grid.scrollIntoViewIfNeeded();
      await shoot(page, `attributes-grid-${viewport}`);
      // The newsletter's tab: its three voters' answers alone.
      await grid.getByRole('tab', { name: 'Newsletter' }).click();
      await expect(grid.getByRole('tabpanel').getByTestId('attribute-row').first().locator('th').innerText()).resolves.toMatch(/3 answers/);
      await grid.scrollIntoViewIfNeeded();
      await shoot(page, `attributes-grid-newsletter-${viewport}`);
      await page.close();
    },
    120_000,
  );

  it('answers every visitor the grid, and only the creator the channels’', async () => {
    const visitor = await attributeResults(session.sessionId);
    expect(visitor.attributes.map((attribute) => attribute.name)).toEqual(['Trustworthy', 'Fits a neighbourhood bakery']);
    expect(visitor.attributes[0]).not.toHaveProperty('channels');
    expect(visitor.attributes[0]!.logos.map((logo) => logo.answers)).toEqual([0, 9, 0]);
    const creator = await attributeResults(session.sessionId, session.creatorToken);
    expect(creator.attributes[0]!.channels?.[0]?.logos.map((logo) => logo.answers)).toEqual([0, 3, 0]);
  });
});

describe('naming attributes in the create form', () => {
  it.each(['phone', 'desktop'] as ViewportName[])(
    'picks presets and own words, refuses a duplicate and sends them (%s)',
    async (viewport) => {
      const page = await browser.newPage(viewport);
      await visit(page, '/', '[data-remote="create"]');
      await page.locator('[data-testid="upload-area"] input[type="file"]').setInputFiles(LOGOS.slice(0, 2).map(fixture));
      const choice = page.getByTestId('attributes-choice');
      // Folded away until asked for: the spec's form is what a creator sees first.
      await expect(choice.getByTestId('attribute-preset').count()).resolves.toBe(0);
      await choice.getByRole('button', { name: 'Ask what each logo says (optional)' }).click();
      await choice.getByTestId('attribute-preset').filter({ hasText: 'Trustworthy' }).click();
      await choice.getByTestId('attribute-preset').filter({ hasText: 'Playful' }).click();
      const words = choice.getByTestId('attribute-input');
      await words.fill('Fits a neighbourhood bakery');
      await words.press('Enter');
      await words.fill('trustworthy');
      await choice.getByTestId('attribute-add').click();
      await expect(choice.getByTestId('attribute-error').innerText()).resolves.toBe('“Trustworthy” is already chosen.');
      await choice.getByRole('button', { name: 'Remove Playful' }).click();
      await expect(choice.getByTestId('attribute-chosen').allInnerTexts()).resolves.toEqual(['Trustworthy', 'Fits a neighbourhood bakery']);
      await expect(choice.getByTestId('attribute-preset').filter({ hasText: 'Trustworthy' }).getAttribute('aria-pressed')).resolves.toBe(
        'true',
      );
      await expectAccessible(page);
      await expectNoHorizontalOverflow(page);
      await choice.scrollIntoViewIfNeeded();
      await shoot(page, `attributes-create-form-${viewport}`);

      const created = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/sessions' && res.request().method() === 'POST');
      await page.getByRole('button', { name: 'Get Votes!' }).click();
      const answer = await created;
      expect(answer.status()).toBe(201);
      const poll = (await answer.json()) as CreatedSession;
      const view = (await (await fetch(`${gatewayUrl}/api/sessions/${poll.sessionId}`)).json()) as { attributes?: string[] };
      expect(view.attributes).toEqual(['Trustworthy', 'Fits a neighbourhood bakery']);
      await page.close();
    },
  );
});

/** Waits until `read` answers `expected` (the answers are counted by the votes service's fold, within a second). */
async function settlesAt<T>(read: () => Promise<T>, expected: T): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    try {
      expect(value).toEqual(expected);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The viewport as the voter sees it with the whole step scrolled clear of the voting view's sticky bar. */
async function shootStep(page: Page, name: string): Promise<void> {
  await page.getByTestId('attribute-step').evaluate((step) => {
    const bar = document.querySelector('[data-testid="vote-bar"]')!;
    window.scrollBy({ top: step.getBoundingClientRect().bottom + 8 - bar.getBoundingClientRect().top, behavior: 'instant' });
  });
  await page.screenshot({ path: screenshotPath(name) });
}

/** The logo ids of the question on screen, in the order shown. */
const shownOrder = (page: Page) =>
  page.getByTestId('attribute-logo').evaluateAll((buttons) => buttons.map((button) => button.getAttribute('data-logo-id')));

/** Waits until the step shows question `n` of its questions. */
const atQuestion = async (page: Page, n: number, of: number) =>
  page
    .getByTestId('attribute-progress')
    .filter({ hasText: `${n} of ${of}` })
    .waitFor({ timeout: 10_000 });

describe('a voter answering the attributes', () => {
  it.each(['phone', 'desktop'] as ViewportName[])(
    'answers one, cannot say for the next, skips the rest and changes an answer, then and on a later visit (%s)',
    async (viewport) => {
      const session = await createPoll({ logos: LOGOS, logoNames: NAMES, attributes: ['Trustworthy', 'Modern', 'Fits a bakery'] });
      const [ring, square] = session.logos.map((logo) => logo.id) as [string, string, string];
      const page = await browser.newPage(viewport);
      await visitPollScreen(page, `/vote/${session.sessionId}`, 'vote');
      // No questions before the vote.
      await expectVoteButton(page, 'Vote');
      await expect(page.getByTestId('attribute-step').count()).resolves.toBe(0);
      await page.getByTestId('vote-button').click();
      await expectVoteButton(page, 'Voted!');

      await atQuestion(page, 1, 3);
      await expect(page.getByTestId('attribute-question').innerText()).resolves.toBe('Which looks most trustworthy?');
      await expect(shownOrder(page).then((ids) => [...ids].sort())).resolves.toEqual(session.logos.map((logo) => logo.id).sort());
      await expectAccessible(page);
      await expectNoHorizontalOverflow(page);
      await shootStep(page, `attributes-question-${viewport}`);
      await page.locator(`[data-testid="attribute-logo"][data-logo-id="${square}"]`).click();

      await atQuestion(page, 2, 3);
      await expect(page.getByTestId('attribute-question').innerText()).resolves.toBe('Which looks most modern?');
      // The heading takes the keyboard, so a screen reader hears the new question.
      await expect(page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).resolves.toBe('attribute-question');
      await page.getByTestId('attribute-cant-say').click();

      await atQuestion(page, 3, 3);
      await expect(page.getByTestId('attribute-question').innerText()).resolves.toBe('Which best fits “Fits a bakery”?');
      await page.getByTestId('attribute-skip').click();
      await expect(page.getByTestId('attribute-done').innerText()).resolves.toBe('Thanks: the answers you gave are in.');
      await shootStep(page, `attributes-skipped-${viewport}`);

      const counts = async () =>
        (await attributeResults(session.sessionId)).attributes.map((attribute) => [
          attribute.logos.map((logo) => logo.answers),
          attribute.cantSay,
        ]);
      await settlesAt(counts, [
        [[0, 1, 0], 0],
        [[0, 0, 0], 1],
        [[0, 0, 0], 0],
      ]);

      // Changed like the vote: the earlier answer is marked, and the new one replaces it.
      await page.getByTestId('attribute-restart').click();
      await atQuestion(page, 1, 3);
      await expect(page.locator(`[data-testid="attribute-logo"][data-logo-id="${square}"]`).getAttribute('aria-pressed')).resolves.toBe(
        'true',
      );
      await page.locator(`[data-testid="attribute-logo"][data-logo-id="${ring}"]`).click();
      await atQuestion(page, 2, 3);
      await expect(page.getByTestId('attribute-cant-say').getAttribute('aria-pressed')).resolves.toBe('true');
      await settlesAt(counts, [
        [[1, 0, 0], 0],
        [[0, 0, 0], 1],
        [[0, 0, 0], 0],
      ]);

      // Back another day: the confirmation screen offers the answers given, to change them.
      await visitPollScreen(page, `/vote/${session.sessionId}`, 'vote');
      await page.getByTestId('vote-confirmation').waitFor();
      await expect(page.getByTestId('attribute-done').innerText()).resolves.toBe('Thanks for your answers.');
      await page.getByTestId('attribute-restart').click();
      await atQuestion(page, 1, 3);
      await expect(page.locator(`[data-testid="attribute-logo"][data-logo-id="${ring}"]`).getAttribute('aria-pressed')).resolves.toBe(
        'true',
      );
      await page.getByTestId('attribute-step').scrollIntoViewIfNeeded();
      await shoot(page, `attributes-returning-${viewport}`);
      await page.locator(`[data-testid="attribute-logo"][data-logo-id="${square}"]`).click();
      await atQuestion(page, 2, 3);
      await settlesAt(counts, [
        [[0, 1, 0], 0],
        [[0, 0, 0], 1],
        [[0, 0, 0], 0],
      ]);
      await page.close();
    },
    120_000,
  );

  it('asks nothing more in a poll without attributes', async () => {
    const session = await createPoll({ logos: LOGOS.slice(0, 2) });
    const page = await browser.newPage('phone');
    const chunks: string[] = [];
    page.on('request', (req) => chunks.push(new URL(req.url()).pathname));
    await visitPollScreen(page, `/vote/${session.sessionId}`, 'vote');
    await page.getByTestId('vote-button').click();
    await expectVoteButton(page, 'Voted!');
    await page.getByTestId('reason-input').waitFor();
    await expect(page.getByTestId('attribute-step').count()).resolves.toBe(0);
    expect(chunks.filter((path) => path.includes('attribute'))).toEqual([]);
    await page.close();
  });
});
