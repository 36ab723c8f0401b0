/**
 * 'What would you change?' (docs/reasons.md, "Notes"): a voter who came through a channel's link votes for
 * one logo and leaves a note on another, on a phone and a desktop. The results show the note under that
 * logo, apart from the reasons for picking it, each with its channel; the CSV has the note and the channels.
 */
import { parse } from 'csv-parse/sync';
import type { CreatedSessionWithCreatorToken } from '@logovote/contracts';
import type { Page } from 'playwright-core';
import { apiVoter, createPoll, randomFingerprint, visitPollScreen } from '../support/polls';
import { testStack } from '../support/stack-env';
import { expectAccessible, expectNoHorizontalOverflow, expectVoteButton, shoot, useBrowser, type ViewportName } from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();
const TOUCH_PHONE = { hasTouch: true, isMobile: true };

const LOGOS = ['logo-ring.png', 'logo-square.png', 'logo-triangle.jpg'];
const NAMES = ['Ring', 'Square', 'Triangle'];

/** The words under a result card's logo: each entry's text and its channel label. */
const entriesOf = (page: Page, logoId: string, kind: 'reasons' | 'notes') =>
  page
    .locator(
      `[data-testid="result-card"][data-logo-id="${logoId}"] [data-testid="${kind}"] [data-testid="${kind === 'reasons' ? 'reason' : 'note'}"]`,
    )
    .evaluateAll((items) =>
      items.map((item) => ({
        text: item.querySelector('q')?.textContent,
        channel: item.querySelector('[data-testid="words-channel"]')?.textContent,
      })),
    );

/** Moves the carousel, by its dots, to the logo with `logoId`. */
async function showLogo(page: Page, logoIds: string[], logoId: string): Promise<void> {
  for (let position = 1; position <= logoIds.length; position += 1) {
    await page.getByRole('button', { name: `Show logo ${position} of ${logoIds.length}` }).click();
    const shown = await page.getByTestId('current-logo').getAttribute('data-logo-id');
    if (shown === logoId) return;
  }
  throw new Error(`logo ${logoId} is not in the carousel`);
}

describe('notes on any logo, with their channel', () => {
  let session: CreatedSessionWithCreatorToken;
  let channelId: (name: string) => string;
  beforeAll(async () => {
    session = await createPoll({ logos: LOGOS, logoNames: NAMES, channels: ['Newsletter', 'Instagram'], sharedNetwork: true });
    channelId = (name) => session.channels!.find((channel) => channel.name === name)!.id;
    // A newsletter reader picks Ring and says why.
    const reader = await apiVoter(session.sessionId);
    const fingerprint = randomFingerprint();
    expect((await reader.vote(session.logos[0]!.id, fingerprint, undefined, channelId('Newsletter'))).status).toBe(200);
    expect((await reader.giveReason('Warm and simple', fingerprint)).status).toBe(200);
  });

  it.each(['phone', 'desktop'] as ViewportName[])(
    'lets a voter note what it would change about a logo it did not pick, shown apart from reasons (%s)',
    async (viewport) => {
      const note = viewport === 'phone' ? 'Square is hard to see on white' : 'Square: the text is too thin';
      const page = await browser.newPage(viewport, { bypassCSP: true, ...(viewport === 'phone' ? TOUCH_PHONE : {}) });
      await visitPollScreen(page, `/vote/${session.sessionId}?via=${channelId('Instagram')}`, 'vote');
      await page.waitForSelector('[data-remote="vote"][data-phase="voting"]', { timeout: 15_000 });
      // No note box before a vote.
      await expect(page.getByTestId('note-box').count()).resolves.toBe(0);

      // Vote for Ring, then look at Square.
      const ring = session.logos[0]!;
      const square = session.logos[1]!;
      const logoIds = session.logos.map((logo) => logo.id);
      await showLogo(page, logoIds, ring.id);
      await page.getByTestId('vote-button').click();
      await expectVoteButton(page, 'Voted!');
      await showLogo(page, logoIds, square.id);
      const box = page.getByTestId('note-box');
      await expect(box.getByText('What would you change about Square?').count()).resolves.toBe(1);
      await page.getByRole('textbox', { name: /What would you change about Square\?/ }).fill(note);
      await expect(page.getByTestId('note-count').innerText()).resolves.toBe(`${note.length}/140`);
      await page.getByTestId('note-send').click();
      await expect(page.getByTestId('note-sent').innerText()).resolves.toBe(`Your note on Square: “${note}”`);
      await expectNoHorizontalOverflow(page);
      await expectAccessible(page);
      await shoot(page, `notes-vote-${viewport}`);

      // Edit it, remove it, give it again: the voter's own note, one per logo.
      await page.getByTestId('note-edit').click();
      await page.getByTestId('note-input').fill(`${note}!`);
      await page.getByTestId('note-send').click();
      await expect(page.getByTestId('note-sent').innerText()).resolves.toBe(`Your note on Square: “${note}!”`);
      await page.getByTestId('note-remove').click();
      await page.getByTestId('note-box').waitFor();
      await expect(page.getByTestId('note-input').inputValue()).resolves.toBe('');
      await page.getByTestId('note-input').fill(note);
      await page.getByTestId('note-send').click();
      await page.getByTestId('note-sent').waitFor();
      // Back on the voted logo, its own box is empty: the note belongs to Square.
      await showLogo(page, logoIds, ring.id);
      await expect(page.getByTestId('note-input').inputValue()).resolves.toBe('');

      // A returning visit finds the note on Square again, after 'Change my vote'.
      await visitPollScreen(page, `/vote/${session.sessionId}`, 'vote');
      await page.getByTestId('change-my-vote').click();
      await showLogo(page, logoIds, square.id);
      await expect(page.getByTestId('note-sent').innerText()).resolves.toBe(`Your note on Square: “${note}”`);
      await page.close();

      const results = await browser.newPage(viewport, { bypassCSP: true });
      // The creator (the manage link), who sees each entry's channel.
      await visitPollScreen(results, `/results/${session.sessionId}#manage=${session.creatorToken}`, 'results');
      await results.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
      const squareCard = results.locator(`[data-testid="result-card"][data-logo-id="${square.id}"]`);
      await squareCard.locator('[data-testid="notes"] [data-testid="note"]').first().waitFor({ timeout: 15_000 });
      await expect(entriesOf(results, square.id, 'notes')).resolves.toContainEqual({ text: note, channel: 'Instagram' });
      // Apart from the reasons: none for Square, and Ring's reason with its own channel.
      await expect(entriesOf(results, square.id, 'reasons')).resolves.toEqual([]);
      await expect(squareCard.getByTestId('reasons').innerText()).resolves.toContain('No reasons given yet.');
      await results.locator(`[data-testid="result-card"][data-logo-id="${ring.id}"] [data-testid="reason"]`).first().waitFor();
      await expect(entriesOf(results, ring.id, 'reasons')).resolves.toEqual([{ text: 'Warm and simple', channel: 'Newsletter' }]);
      await expect(squareCard.getByRole('heading', { name: 'What would you change?' }).count()).resolves.toBe(1);
      await expectNoHorizontalOverflow(results);
      await expectAccessible(results);
      await squareCard.scrollIntoViewIfNeeded();
      await shoot(results, `notes-results-${viewport}`);
      await results.close();
    },
    // A voter's whole visit, a second visit and the results, on a machine shared with other runs.
    240_000,
  );

  it('exports the notes and every reason’s and note’s channel in the CSV', async () => {
    const csv = await fetch(`${gatewayUrl}/api/sessions/${session.sessionId}/results.csv`, {
      headers: { 'X-Creator-Token': session.creatorToken },
    });
    expect(csv.status).toBe(200);
    const [header, ...rows] = parse(Buffer.from(await csv.arrayBuffer()), { bom: true }) as string[][];
    expect(header).toEqual([
      'Logo',
      'Original file name',
      'Votes',
      'Percent of total votes',
      'Reason',
      'Reason date',
      'Logo name',
      'Channel',
      'Note',
      'Note date',
      'Theme',
    ]);
    const named = (row: string[]) => ({ name: row[6], reason: row[4], channel: row[7], note: row[8] });
    expect(rows.map(named)).toEqual(
      expect.arrayContaining([
        { name: 'Ring', reason: 'Warm and simple', channel: 'Newsletter', note: '' },
        { name: 'Square', reason: '', channel: 'Instagram', note: 'Square is hard to see on white' },
        { name: 'Square', reason: '', channel: 'Instagram', note: 'Square: the text is too thin' },
      ]),
    );
  });
});
