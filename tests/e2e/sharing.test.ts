import { readFileSync, writeFileSync } from 'node:fs';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { PREVIEW_IMAGE_HEIGHT, PREVIEW_IMAGE_WIDTH } from '@logovote/contracts';
import { deleteAdminPoll } from '../support/admin';
import { screenshotPath } from '../support/browser';
import { createPoll, visitPollScreen } from '../support/polls';
import { testStack } from '../support/stack-env';
import { expectAccessible, expectFocusOn, expectNoHorizontalOverflow, shoot, useBrowser, type ViewportName } from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();

/** Characters that must reach a crawler intact, yet never as markup. */
const QUESTION = 'Best <logo> for "Bread & Butter"?';

/** A page's HTML as a crawler gets it: a plain request, no script run. */
async function crawl(path: string): Promise<string> {
  const res = await fetch(`${gatewayUrl}${path}`, { headers: { 'User-Agent': 'facebookexternalhit/1.1' } });
  expect(res.status).toBe(200);
  return res.text();
}

/** Every og: and twitter: meta tag of a page, entities decoded as a crawler decodes them. */
function metaTags(html: string): Record<string, string> {
  const decode = (value: string) =>
    value.replace(/&(lt|gt|quot|amp|#39);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', amp: '&', '#39': "'" })[name]!);
  const tags = [...html.matchAll(/<meta (?:property|name)="((?:og|twitter):[^"]+)" content="([^"]*)"\s*\/?>/g)];
  return Object.fromEntries(tags.map(([, key, value]) => [key!, decode(value!)]));
}

/** The text a QR code in a PNG holds. */
function decodeQr(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

describe('link previews: what a crawler (no JavaScript) reads on a poll page', () => {
  it.each(['vote', 'results'] as const)('/%s/{id} carries Open Graph and Twitter card tags with the question, escaped', async (route) => {
    const poll = await createPoll({ logos: ['logo-ring.png', 'logo-triangle.jpg', 'logo-wave.svg'], feedbackPrompt: QUESTION });
    const html = await crawl(`/${route}/${poll.sessionId}`);
    expect(html).not.toContain('<logo>');
    expect(html).not.toContain('"Bread');
    const image = `${gatewayUrl}/api/sessions/${poll.sessionId}/preview.png`;
    expect(metaTags(html)).toMatchObject({
      'og:title': QUESTION,
      'og:type': 'website',
      'og:url': `${gatewayUrl}/${route}/${poll.sessionId}`,
      'og:image': image,
      'og:image:width': String(PREVIEW_IMAGE_WIDTH),
      'og:image:height': String(PREVIEW_IMAGE_HEIGHT),
      'twitter:card': 'summary_large_image',
      'twitter:title': QUESTION,
      'twitter:image': image,
    });
    expect(metaTags(html)['og:description']).toContain('3 logos');
    // One set of tags: the generic ones are not there as well.
    expect(html.match(/property="og:title"/g)).toHaveLength(1);
    // The page itself is as before: the poll embedded, the first paint's logo.
    expect(html).toContain('<template id="logovote-poll">{');
    expect(html).toContain(`/api/logos/${poll.logos[0]!.filename}`);
  });

  it('points at a 1200×630 PNG of the logos, which is gone with the poll', async () => {
    const poll = await createPoll({ feedbackPrompt: QUESTION });
    const image = metaTags(await crawl(`/vote/${poll.sessionId}`))['og:image']!;
    const res = await fetch(image);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('etag')).toBeTruthy();
    const png = PNG.sync.read(Buffer.from(await res.arrayBuffer()));
    expect([png.width, png.height]).toEqual([PREVIEW_IMAGE_WIDTH, PREVIEW_IMAGE_HEIGHT]);
    writeFileSync(screenshotPath('sharing-preview-image'), PNG.sync.write(png));

    expect(await deleteAdminPoll(poll.sessionId)).toBe(200);
    const gone = await fetch(image);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ message: 'Voting session not found' });
    expect(metaTags(await crawl(`/vote/${poll.sessionId}`))['og:title']).toBe('LogoVote');
  });

  it('gives a missing poll, and every other page, the generic tags', async () => {
    for (const path of ['/vote/AAAAAAAAAAAAAAAA', '/results/AAAAAAAAAAAAAAAA', '/', '/terms']) {
      const tags = metaTags(await crawl(path));
      expect(tags).toEqual({
        'og:type': 'website',
        'og:site_name': 'LogoVote',
        'og:title': 'LogoVote',
        'og:description': 'Find out which logo people like best. Upload up to 4 logos and share a voting link.',
        'twitter:card': 'summary',
      });
    }
  });
});

describe("the results page's QR code", () => {
  it.each(['phone', 'desktop'] as const)(
    'opens beside Share on a %s, holds the voting link and downloads as a PNG',
    async (viewport: ViewportName) => {
      const poll = await createPoll({ feedbackPrompt: 'Which logo should we print on the flyers?' });
      const page = await browser.newPage(viewport, { acceptDownloads: true });
      const qrChunks: string[] = [];
      page.on('request', (req) => {
        if (/qr-code-dialog/.test(req.url())) qrChunks.push(req.url());
      });
      await visitPollScreen(page, `/results/${poll.sessionId}`, 'results');
      await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
      // The encoder is not part of the page's first load.
      expect(qrChunks).toEqual([]);
      await expect(page.getByRole('button', { name: 'Share' }).isVisible()).resolves.toBe(true);
      await expectNoHorizontalOverflow(page);
      await page.screenshot({ path: screenshotPath(`sharing-results-header-${viewport}`) });

      const opener = page.getByRole('button', { name: 'QR code', exact: true });
      await opener.click();
      const dialog = page.getByRole('dialog', { name: 'QR code for the voting link' });
      await dialog.waitFor();
      expect(qrChunks.length).toBeGreaterThan(0);
      const votingUrl = `${gatewayUrl}/vote/${poll.sessionId}`;
      const image = dialog.getByRole('img', { name: `QR code that opens ${votingUrl}` });
      await image.waitFor();
      await expect(dialog.getByTestId('qr-code-link').innerText()).resolves.toBe(votingUrl);
      // Focus is inside the dialog.
      await expect(page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).resolves.toBe(true);

      const shown = await image.getAttribute('src');
      expect(shown).toMatch(/^data:image\/png;base64,/);
      expect(decodeQr(Buffer.from(shown!.split(',')[1]!, 'base64'))).toBe(votingUrl);

      const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('link', { name: 'Download PNG' }).click()]);
      expect(download.suggestedFilename()).toBe(`logovote-poll-${poll.sessionId}-qr.png`);
      const file = readFileSync((await download.path())!);
      expect(decodeQr(file)).toBe(votingUrl);

      await expectNoHorizontalOverflow(page);
      await shoot(page, `sharing-qr-dialog-${viewport}`);
      await expectAccessible(page);

      // Escape closes it, and focus goes back to the button.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await expectFocusOn(opener);
    },
  );
});
