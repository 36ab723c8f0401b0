/**
 * Reason themes (docs/reasons.md, "Themes"): a bakery's voters say why in their own words, through two
 * channels; the results page shows, below the cards, each logo's themes with how many reasons say them and
 * verbatim quotes, on a phone and a desktop, and the creator reads each channel's own. The CSV names each
 * reason's theme.
 */
import { parse } from 'csv-parse/sync';
import type { CreatedSessionWithCreatorToken, ProofRequired } from '@logovote/contracts';
import { apiVoter, createPoll, randomFingerprint, visitPollScreen } from '../support/polls';
import { solveVoteChallenge } from '../support/proof-of-work';
import { testStack } from '../support/stack-env';
import { expectAccessible, expectNoHorizontalOverflow, shoot, useBrowser, type ViewportName } from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();

const NEWSLETTER_REASONS = [
  'Feels cosy and homely',
  'So warm, like my grandmother’s kitchen',
  'Warm, welcoming colours',
  'Cosy vibe, like a real neighbourhood bakery',
  'The bread shape makes it obvious what they sell',
];
const INSTAGRAM_REASONS = [
  'Easy to read from across the street',
  'Really legible lettering',
  'Clear, readable name',
  'Warm and friendly',
  'Simple and clean',
];
const ALL_REASONS = [...NEWSLETTER_REASONS, ...INSTAGRAM_REASONS];

describe('reason themes on the results page', () => {
  let session: CreatedSessionWithCreatorToken;
  beforeAll(async () => {
    session = await createPoll({ logoNames: ['Wheat', 'Oven', 'Loaf', 'Sun'], channels: ['Newsletter', 'Instagram'], sharedNetwork: true });
    const channelId = (name: string) => session.channels!.find((channel) => channel.name === name)!.id;
    const voter = await apiVoter(session.sessionId);
    for (const [channel, reasons] of [
      ['Newsletter', NEWSLETTER_REASONS],
      ['Instagram', INSTAGRAM_REASONS],
    ] as const) {
      for (const reason of reasons) {
        const fingerprint = randomFingerprint();
        let res = await voter.vote(session.logos[0]!.id, fingerprint, undefined, channelId(channel));
        if (res.status === 428) {
          const { challenge } = (await res.json()) as ProofRequired;
          res = await voter.vote(session.logos[0]!.id, fingerprint, await solveVoteChallenge(challenge), channelId(channel));
        }
        expect(res.status).toBe(200);
        expect((await voter.giveReason(reason, fingerprint)).status).toBe(200);
      }
    }
    // The votes service's fold finds them within a few seconds.
    for (let tries = 0; tries < 60; tries += 1) {
      const themes = (await (await fetch(`${gatewayUrl}/api/sessions/${session.sessionId}/themes`)).json()) as {
        logos: { reasons: number }[];
      };
      if (themes.logos[0]?.reasons === ALL_REASONS.length) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error('the themes were not found within 30 s');
  }, 180_000);

  it.each(['phone', 'desktop'] as ViewportName[])(
    'shows each logo’s themes with counts and verbatim quotes, and the creator each channel’s (%s)',
    async (viewport) => {
      const page = await browser.newPage(viewport, { bypassCSP: true });
      await visitPollScreen(page, `/results/${session.sessionId}#manage=${session.creatorToken}`, 'results');
      await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
      const section = page.getByTestId('reason-themes');
      const wheat = section.locator(`[data-testid="logo-themes"][data-logo-id="${session.logos[0]!.id}"]`);
      await wheat.getByTestId('theme').first().waitFor({ timeout: 15_000 });
      const themes = await wheat.getByTestId('theme').evaluateAll((items) =>
        items.map((item) => ({
          label: item.querySelector('[data-testid="theme-label"]')?.textContent ?? '',
          count: Number(/(\d+) reasons?/.exec(item.querySelector('[data-testid="theme-count"]')?.textContent ?? '')?.[1]),
          quotes: [...item.querySelectorAll('[data-testid="theme-quote"]')].map((quote) => quote.textContent ?? ''),
        })),
      );
      expect(themes.length).toBeGreaterThanOrEqual(2);
      for (const theme of themes) {
        expect(theme.count).toBeGreaterThanOrEqual(2);
        for (const quote of theme.quotes) expect(ALL_REASONS).toContain(quote);
      }
      // The logos without reasons say why they have no themes yet.
      await expect(section.locator(`[data-testid="logo-themes"][data-logo-id="${session.logos[1]!.id}"]`).innerText()).resolves.toContain(
        'Themes show once 5 voters have said why (0 so far).',
      );
      await expectNoHorizontalOverflow(page);
      await expectAccessible(page);
      await section.scrollIntoViewIfNeeded();
      await shoot(page, `reason-themes-${viewport}`);

      // The creator reads the Instagram readers' own themes.
      await section.getByRole('tab', { name: 'Instagram' }).click();
      const instagram = section.getByRole('tabpanel');
      const quotes = await instagram.getByTestId('theme-quote').allInnerTexts();
      expect(quotes.length).toBeGreaterThan(0);
      for (const quote of quotes) expect(INSTAGRAM_REASONS).toContain(quote.replace(/^[“"]|[”"]$/g, ''));
      await section.scrollIntoViewIfNeeded();
      await shoot(page, `reason-themes-instagram-${viewport}`);
      await page.close();
    },
    120_000,
  );

  it('shows an open page a theme as soon as the fifth reason makes one, without a reload', async () => {
    const poll = await createPoll({ logoNames: ['Wheat', 'Oven'], logos: ['logo-ring.png', 'logo-square.png'], sharedNetwork: true });
    const voter = await apiVoter(poll.sessionId);
    const giveVoteAndReason = async (reason: string) => {
      const fingerprint = randomFingerprint();
      expect((await voter.vote(poll.logos[0]!.id, fingerprint)).status).toBe(200);
      expect((await voter.giveReason(reason, fingerprint)).status).toBe(200);
    };
    for (const reason of NEWSLETTER_REASONS.slice(0, 4)) await giveVoteAndReason(reason);
    const page = await browser.newPage('phone');
    await visitPollScreen(page, `/results/${poll.sessionId}`, 'results');
    const wheat = page.locator(`[data-testid="logo-themes"][data-logo-id="${poll.logos[0]!.id}"]`);
    await wheat.getByText(/Themes show once 5 voters have said why \([0-4] so far\)\./).waitFor({ timeout: 15_000 });
    await giveVoteAndReason(NEWSLETTER_REASONS[4]!);
    // The fold finds the themes within seconds and the live results tell the open page.
    await wheat.getByTestId('theme').first().waitFor({ timeout: 30_000 });
    await expect(wheat.getByTestId('theme-quote').allInnerTexts()).resolves.not.toEqual([]);
    await page.close();
  }, 120_000);

  it('shows a visitor the whole poll’s themes only, and the CSV names each reason’s theme', async () => {
    const visitor = (await (await fetch(`${gatewayUrl}/api/sessions/${session.sessionId}/themes`)).json()) as {
      logos: { themes: { label: string }[]; channels?: unknown }[];
    };
    expect(visitor.logos[0]).not.toHaveProperty('channels');
    const labels = visitor.logos[0]!.themes.map((theme) => theme.label);
    const csv = await fetch(`${gatewayUrl}/api/sessions/${session.sessionId}/results.csv`, {
      headers: { 'X-Creator-Token': session.creatorToken },
    });
    const [header, ...rows] = parse(Buffer.from(await csv.arrayBuffer()), { bom: true }) as string[][];
    expect(header!.at(-1)).toBe('Theme');
    const reasonRows = rows.filter((row) => row[4] !== '');
    expect(reasonRows).toHaveLength(ALL_REASONS.length);
    const themed = reasonRows.filter((row) => row.at(-1) !== '');
    expect(themed.length).toBeGreaterThanOrEqual(4);
    for (const row of themed) expect(labels).toContain(row.at(-1));
  });
});
