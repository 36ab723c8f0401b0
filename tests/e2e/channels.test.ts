/**
 * Channels (docs/channels.md): a poll shared in three places, where each audience prefers another logo. The
 * results page shows, beside the total (a three-way tie), each channel's votes and its own verdict, on a phone
 * and a desktop; the creator also gets each channel's link and QR code. A browser that arrives through a
 * channel's link votes for that channel, also when it votes from another channel's link later.
 */
import type { ChannelResults, CreatedSession, CreatedSessionWithCreatorToken } from '@logovote/contracts';
import { judgePoll, verdictSentence } from '@logovote/contracts/verdict';
import type { Page } from 'playwright-core';
import { apiVoter, createPoll, randomFingerprint, visitPollScreen } from '../support/polls';
import { testStack } from '../support/stack-env';
import { expectAccessible, expectNoHorizontalOverflow, fixture, shoot, useBrowser, visit, type ViewportName } from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();

const LOGOS = ['logo-ring.png', 'logo-square.png', 'logo-triangle.jpg'];
const CHANNELS = ['Newsletter', 'Instagram', 'Team'];
/** Votes per logo (upload order) through each channel, and through the plain link. */
const VOTES: Record<string, number[]> = {
  Newsletter: [5, 1, 0],
  Instagram: [0, 5, 1],
  Team: [1, 0, 5],
};

/** Casts `counts[i]` votes for logo i, each by a new voter, through the channel `via` (none: the plain link). */
async function castVotes(session: CreatedSession, counts: readonly number[], via?: string): Promise<void> {
  const voter = await apiVoter(session.sessionId);
  for (const [index, count] of counts.entries()) {
    for (let i = 0; i < count; i += 1) {
      const res = await voter.vote(session.logos[index]!.id, randomFingerprint(), undefined, via);
      expect(res.status).toBe(200);
    }
  }
}

/** The votes per channel, as the poll's creator reads them (they are the creator's only). */
async function channelResults(session: CreatedSessionWithCreatorToken): Promise<ChannelResults> {
  const res = await fetch(`${gatewayUrl}/api/sessions/${session.sessionId}/channels`, {
    headers: { 'X-Creator-Token': session.creatorToken },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as ChannelResults;
}

async function openResults(path: string, viewport: ViewportName): Promise<Page> {
  const page = await browser.newPage(viewport, { bypassCSP: true });
  await visitPollScreen(page, path, 'results');
  await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
  await page.getByTestId('channel-results').waitFor({ timeout: 15_000 });
  return page;
}

/** Each channel group's name and verdict sentence, in the page's order. */
const groups = (page: Page) =>
  page.getByTestId('channel-group').evaluateAll((items) =>
    items.map((item) => ({
      name: item.querySelector('h3')?.textContent,
      total: item.querySelector('[data-testid="channel-total"]')?.textContent,
      verdict: item.querySelector('[data-testid="channel-verdict"]')?.textContent,
      logos: [...item.querySelectorAll('[data-testid="channel-logo"]')].map((logo) => logo.textContent),
    })),
  );

describe('a poll with three channels', () => {
  let session: CreatedSessionWithCreatorToken;
  beforeAll(async () => {
    session = await createPoll({ logos: LOGOS, logoNames: ['Ring', 'Square', 'Triangle'], channels: CHANNELS, sharedNetwork: true });
    expect(session.channels?.map((channel) => channel.name)).toEqual(CHANNELS);
    for (const channel of session.channels!) await castVotes(session, VOTES[channel.name]!, channel.id);
  });

  it('shows the creator each channel’s own winner and verdict beside the total, on a phone and a desktop', async () => {
    // 6 votes each: the total is a three-way tie, ranked in upload order (Ring, Square, Triangle = Logo A, B, C).
    const expected = [
      { name: 'Newsletter', total: '6 votes', verdict: verdictSentence(judgePoll([5, 1, 0]), ['Logo A', 'Logo B', 'Logo C']) },
      { name: 'Instagram', total: '6 votes', verdict: verdictSentence(judgePoll([5, 1, 0]), ['Logo B', 'Logo C', 'Logo A']) },
      { name: 'Team', total: '6 votes', verdict: verdictSentence(judgePoll([5, 1, 0]), ['Logo C', 'Logo A', 'Logo B']) },
    ];
    expect(expected.map((group) => group.verdict.split(' ').slice(0, 2).join(' '))).toEqual(['Logo A', 'Logo B', 'Logo C']);
    for (const viewport of ['phone', 'desktop'] as const) {
      const page = await openResults(`/results/${session.sessionId}#manage=${session.creatorToken}`, viewport);
      await expect(page.getByTestId('total-votes').innerText()).resolves.toBe('Total votes: 18');
      await expect(page.getByTestId('confidence-verdict').getAttribute('data-verdict')).resolves.toBe('tie');
      const shown = await groups(page);
      expect(shown.map(({ name, total, verdict }) => ({ name, total, verdict }))).toEqual(expected);
      expect(shown[0]!.logos).toEqual(['Logo A · Ring: 5 (83%)', 'Logo B · Square: 1 (17%)', 'Logo C · Triangle: 0 (0%)']);
      // No votes came through the plain link: no group for it.
      await expect(page.getByTestId('channel-group').count()).resolves.toBe(3);
      await page.getByTestId('channel-results').scrollIntoViewIfNeeded();
      await expectAccessible(page);
      await expectNoHorizontalOverflow(page);
      await shoot(page, `channels-results-${viewport}`);
      await page.close();
    }
  });

  it('gives the creator each channel’s voting link and QR code', async () => {
    for (const viewport of ['phone', 'desktop'] as const) {
      const page = await openResults(`/results/${session.sessionId}#manage=${session.creatorToken}`, viewport);
      const instagram = page.locator('[data-testid="channel-group"]', { hasText: 'Instagram' });
      await instagram.getByRole('button', { name: 'QR code for Instagram' }).click();
      const dialog = page.getByTestId('qr-code-dialog');
      await dialog.waitFor();
      const channelId = session.channels!.find((channel) => channel.name === 'Instagram')!.id;
      await expect(dialog.getByTestId('qr-code-link').innerText()).resolves.toBe(
        `${gatewayUrl}/vote/${session.sessionId}?via=${channelId}`,
      );
      await dialog.getByRole('img').waitFor();
      await expectAccessible(page);
      await shoot(page, `channels-creator-qr-${viewport}`);
      await page.keyboard.press('Escape');
      await expectNoHorizontalOverflow(page);
      await page.getByTestId('channel-results').scrollIntoViewIfNeeded();
      await shoot(page, `channels-creator-${viewport}`);
      await page.close();
    }
  });

  it('counts a browser for the channel of the link it first arrived through, whatever link it votes from', async () => {
    const [, instagram, team] = session.channels!;
    const page = await browser.newPage('phone');
    // First through Team's link, without voting; then back through Instagram's, and the vote.
    await visitPollScreen(page, `/vote/${session.sessionId}?via=${team!.id}`, 'vote');
    await page.getByTestId('vote-button').waitFor();
    await visitPollScreen(page, `/vote/${session.sessionId}?via=${instagram!.id}`, 'vote');
    // The vote's answer: the vote and its channel are counted once it comes.
    const voted = page.waitForResponse((res) => res.url().endsWith(`/api/sessions/${session.sessionId}/vote`));
    await page.getByTestId('vote-button').click();
    expect((await voted).status()).toBe(200);
    const after = await channelResults(session);
    expect(after.channels.map((channel) => [channel.name, channel.totalVotes])).toEqual([
      ['Newsletter', 6],
      ['Instagram', 6],
      ['Team', 7],
    ]);
    expect(after.direct.totalVotes).toBe(0);
    await page.close();
  });
});

describe('naming channels in the create form', () => {
  it.each(['phone', 'desktop'] as const)('adds, refuses a duplicate, removes and sends them on a %s', async (viewport) => {
    const page = await browser.newPage(viewport);
    await visit(page, '/', '[data-remote="create"]');
    await page.locator('[data-testid="upload-area"] input[type="file"]').setInputFiles(LOGOS.slice(0, 2).map(fixture));
    const choice = page.getByTestId('channels-choice');
    const name = choice.getByLabel('Channel name');
    for (const channel of ['Newsletter', 'Instagram', 'Team']) {
      await name.fill(channel);
      await name.press('Enter');
    }
    await name.fill(' team ');
    await choice.getByRole('button', { name: 'Add' }).click();
    await expect(choice.getByRole('alert').innerText()).resolves.toBe('Each channel needs a different name.');
    await choice.getByRole('button', { name: 'Remove channel Instagram' }).click();
    await expect(choice.getByRole('list', { name: 'Channels' }).getByRole('listitem').allInnerTexts()).resolves.toEqual([
      'Newsletter',
      'Team',
    ]);
    await expectAccessible(page);
    await expectNoHorizontalOverflow(page);
    await choice.scrollIntoViewIfNeeded();
    await shoot(page, `channels-create-form-${viewport}`);

    const created = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/sessions' && res.request().method() === 'POST');
    await page.getByRole('button', { name: 'Get Votes!' }).click();
    const answer = await created;
    expect(answer.status()).toBe(201);
    expect(((await answer.json()) as CreatedSession).channels?.map((channel) => channel.name)).toEqual(['Newsletter', 'Team']);
    await page.close();
  });
});
