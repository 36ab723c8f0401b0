/**
 * Channels (docs/channels.md): a poll shared in three places, where each audience prefers another logo. The
 * results page shows, beside the total (a three-way tie), each channel's votes and its own verdict, on a phone
 * and a desktop; the creator also gets each channel's link and QR code. A browser that arrives through a
 * channel's link votes for that channel, and stays in it when it comes back through the plain link.
 */
import type { ChannelResults, CreatedSession } from '@logovote/contracts';
import { judgePoll, verdictSentence } from '@logovote/contracts/verdict';
import type { Page } from 'playwright-core';
import { apiVoter, createPoll, randomFingerprint, visitPollScreen } from '../support/polls';
import { testStack } from '../support/stack-env';
import { expectAccessible, expectNoHorizontalOverflow, shoot, useBrowser, type ViewportName } from '../support/web';

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

async function channelResults(sessionId: string): Promise<ChannelResults> {
  const res = await fetch(`${gatewayUrl}/api/sessions/${sessionId}/channels`);
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
  let session: CreatedSession;
  beforeAll(async () => {
    session = await createPoll({ logos: LOGOS, logoNames: ['Ring', 'Square', 'Triangle'], channels: CHANNELS, sharedNetwork: true });
    expect(session.channels?.map((channel) => channel.name)).toEqual(CHANNELS);
    for (const channel of session.channels!) await castVotes(session, VOTES[channel.name]!, channel.id);
  });

  it('shows each channel’s own winner and verdict beside the total, on a phone and a desktop', async () => {
    // 6 votes each: the total is a three-way tie, ranked in upload order (Ring, Square, Triangle = Logo A, B, C).
    const expected = [
      { name: 'Newsletter', total: '6 votes', verdict: verdictSentence(judgePoll([5, 1, 0]), ['Logo A', 'Logo B', 'Logo C']) },
      { name: 'Instagram', total: '6 votes', verdict: verdictSentence(judgePoll([5, 1, 0]), ['Logo B', 'Logo C', 'Logo A']) },
      { name: 'Team', total: '6 votes', verdict: verdictSentence(judgePoll([5, 1, 0]), ['Logo C', 'Logo A', 'Logo B']) },
    ];
    expect(expected.map((group) => group.verdict.split(' ').slice(0, 2).join(' '))).toEqual(['Logo A', 'Logo B', 'Logo C']);
    for (const viewport of ['phone', 'desktop'] as const) {
      const page = await openResults(`/results/${session.sessionId}`, viewport);
      await expect(page.getByTestId('total-votes').innerText()).resolves.toBe('Total votes: 18');
      await expect(page.getByTestId('confidence-verdict').getAttribute('data-verdict')).resolves.toBe('tie');
      const shown = await groups(page);
      expect(shown.map(({ name, total, verdict }) => ({ name, total, verdict }))).toEqual(expected);
      expect(shown[0]!.logos).toEqual(['Logo A · Ring: 5 (83%)', 'Logo B · Square: 1 (17%)', 'Logo C · Triangle: 0 (0%)']);
      // No votes came through the plain link: no group for it. A visitor gets no channel links.
      await expect(page.getByTestId('channel-results').getByRole('button', { name: 'Copy link' }).count()).resolves.toBe(0);
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

  it('counts a browser for the channel of its first link, also when it comes back through the plain link', async () => {
    const team = session.channels!.find((channel) => channel.name === 'Team')!;
    const page = await browser.newPage('phone');
    await visitPollScreen(page, `/vote/${session.sessionId}?via=${team.id}`, 'vote');
    await page.getByTestId('vote-button').click();
    await page.waitForFunction(
      async (id) => (await fetch(`/api/sessions/${id}`).then((res) => res.json())).totalVotes === 19,
      session.sessionId,
    );
    const after = await channelResults(session.sessionId);
    expect(after.channels.find((channel) => channel.id === team.id)!.totalVotes).toBe(7);

    // Back through the plain link, voting for another logo: the vote moves within Team.
    await visitPollScreen(page, `/vote/${session.sessionId}`, 'vote');
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByTestId('vote-button').click();
    await page.waitForFunction(
      async ({ id, teamId, before }) => {
        const results = await fetch(`/api/sessions/${id}/channels`).then((res) => res.json());
        const votes = results.channels
          .find((channel: { id: string }) => channel.id === teamId)
          .logos.map((logo: { votes: number }) => logo.votes);
        return JSON.stringify(votes) !== before;
      },
      {
        id: session.sessionId,
        teamId: team.id,
        before: JSON.stringify(after.channels.find((channel) => channel.id === team.id)!.logos.map((logo) => logo.votes)),
      },
    );
    const moved = await channelResults(session.sessionId);
    expect(moved.channels.find((channel) => channel.id === team.id)!.totalVotes).toBe(7);
    expect(moved.direct.totalVotes).toBe(0);
    await page.close();
  });
});
