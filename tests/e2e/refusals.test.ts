/**
 * Each check's reason on /test/moderate and in the creation error toast, and the admin's list of
 * uploads refused in the last 30 days, through the real gateway and the real pipeline.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UploadRefusalList, type UploadRefusal } from '@logovote/contracts';
import type { Locator, Page } from 'playwright-core';
import { BRAND_DESIGNS, drawTextLogo } from '../../packages/media-pipeline/test/labelled/brand-logos';
import { adminAuthorization, adminCredentials } from '../support/admin';
import { screenshotPath } from '../support/browser';
import { testStack } from '../support/stack-env';
import {
  expectAccessible,
  expectNoHorizontalOverflow,
  expectToast,
  fixture,
  shoot,
  useBrowser,
  visit,
  type FilePayload,
  type ViewportName,
} from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();

/** The admin's browser (see admin-polls.test.ts): credentials, a fixed time zone and locale, axe allowed in. */
const ADMIN_BROWSER = { httpCredentials: adminCredentials(), timezoneId: 'Europe/Berlin', locale: 'en-US', bypassCSP: true };
/** This run's file names, apart from those of other test files (they refuse uploads too). */
const run = randomBytes(3).toString('hex');
const SVG_POLICY = 'was refused: SVG logos must not contain scripts, event handlers, foreignObject or external references';

/** An SVG logo with a script: the pipeline's SVG policy refuses it. */
const scriptedSvg = (name: string): FilePayload => ({
  name,
  mimeType: 'image/svg+xml',
  buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(1)</script><circle r="20"/></svg>'),
});

/** A public-domain photograph of a face in a logo badge, from the labelled moderation set: the faces check refuses it. */
const faceLogo = (name: string): FilePayload => ({
  name,
  mimeType: 'image/jpeg',
  buffer: readFileSync(join(__dirname, '..', '..', 'packages', 'media-pipeline', 'test', 'labelled', 'faces', 'hopper-badge.jpg')),
});
const FACE_REFUSED = 'was rejected by content moderation: A photographic human face was found';

/** A wordmark that reads 'Google', drawn as the labelled set draws it: the brands check refuses it. */
async function brandLogo(name: string): Promise<FilePayload> {
  const google = BRAND_DESIGNS.find((entry) => entry.name === 'google-bold')!;
  return { name, mimeType: 'image/png', buffer: await drawTextLogo(google.design) };
}
const BRAND_REFUSED = 'was rejected by content moderation: The logo reads "Google", a well-known brand name: possibly impersonating';

/** POST /api/sessions through the gateway, as the landing page sends it; resolves with the status and message. */
async function createThroughGateway(files: FilePayload[]): Promise<{ status: number; message: string }> {
  const form = new FormData();
  for (const file of files) form.append('logos', new Blob([new Uint8Array(file.buffer)], { type: file.mimeType }), file.name);
  const res = await fetch(`${gatewayUrl}/api/sessions`, { method: 'POST', body: form });
  return { status: res.status, message: ((await res.json()) as { message: string }).message };
}

/** The refusal of this file name in GET /api/admin/refusals (with the admin's credentials), following the pages. */
async function listedRefusal(fileName: string): Promise<UploadRefusal | undefined> {
  for (let path: string | undefined = '/api/admin/refusals'; path;) {
    const res: Response = await fetch(`${gatewayUrl}${path}`, { headers: adminAuthorization() });
    expect(res.status).toBe(200);
    const found = UploadRefusalList.parse(await res.json()).find((refusal) => refusal.fileName === fileName);
    if (found) return found;
    path = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('Link') ?? '')?.[1];
  }
  return undefined;
}

/** Waits until the sessions service has written the refusal (it records it beside the answer, not before). */
async function eventuallyListed(fileName: string): Promise<UploadRefusal> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = await listedRefusal(fileName);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`${fileName} is not among the refused uploads`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('each check’s reason on the moderation test page', () => {
  it.each(['phone', 'desktop'] as const)('lists every check with its verdict and reason in the Summary tab on a %s', async (viewport) => {
    const page = await visit(await browser.newPage(viewport), '/test/moderate', '[data-page="test-moderate"]');
    await page.getByLabel('Image').setInputFiles(fixture('logo-ring.png'));
    await page.getByRole('button', { name: 'Test Moderation' }).click();
    const result = page.locator('[data-testid="moderation-result"]');
    await result.waitFor({ timeout: 30_000 });
    const checks = result.getByRole('list', { name: 'Moderation checks' });
    const names = await checks.locator('li').evaluateAll((items) => items.map((item) => item.getAttribute('data-check')));
    expect(names).toContain('nudity');
    /** What a screen reader says of a check: the verdict, the check and its own reason. */
    const spoken = async (name: string) => (await checks.locator(`li[data-check="${name}"]`).innerText()).replace(/\s+/g, ' ');
    for (const name of names) {
      await expect(checks.locator(`li[data-check="${name}"]`).getAttribute('data-valid')).resolves.toBe('true');
      expect(await spoken(name!)).toMatch(/^Passed: \S.*: \S/);
    }
    expect(await spoken('nudity')).toBe('Passed: Nudity: No nudity detected');
    await expectAccessible(page);
    await expectNoHorizontalOverflow(page);
    await shoot(page, `refusals-test-moderate-checks-${viewport}`);
  });

  it('marks the check that refused a photographic face, with its reason, beside the checks that passed', async () => {
    const page = await visit(await browser.newPage('desktop'), '/test/moderate', '[data-page="test-moderate"]');
    await page.getByLabel('Image').setInputFiles(faceLogo('portrait.jpg'));
    await page.getByRole('button', { name: 'Test Moderation' }).click();
    const result = page.locator('[data-testid="moderation-result"]');
    await result.waitFor({ timeout: 30_000 });
    await expect(result.getByRole('heading', { name: 'Image Failed Validation' }).count()).resolves.toBe(1);
    const checks = result.getByRole('list', { name: 'Moderation checks' });
    await expect(checks.locator('li[data-check="faces"]').getAttribute('data-valid')).resolves.toBe('false');
    await expect(checks.locator('li[data-check="faces"]').innerText()).resolves.toMatch(
      /A photographic human face was found \(score \d+%\)/,
    );
    await expect(checks.locator('li[data-check="nudity"]').getAttribute('data-valid')).resolves.toBe('true');
    await expect(checks.locator('li[data-check="brands"]').getAttribute('data-valid')).resolves.toBe('true');
    await page.getByRole('tab', { name: 'Raw Response' }).click();
    await expect(result.getByLabel('Raw response', { exact: true }).innerText()).resolves.toContain('"refusedBy": [\n    "faces"\n  ]');
    await shoot(page, 'refusals-test-moderate-face-desktop');
  });

  it('names the refusing stage and its reason for a file refused before moderation', async () => {
    const page = await visit(await browser.newPage('phone'), '/test/moderate', '[data-page="test-moderate"]');
    await page.getByLabel('Image').setInputFiles(scriptedSvg('scripted.svg'));
    await page.getByRole('button', { name: 'Test Moderation' }).click();
    const result = page.locator('[data-testid="moderation-result"]');
    await result.waitFor({ timeout: 30_000 });
    await expect(result.getByRole('heading', { name: 'Image Failed Validation' }).count()).resolves.toBe(1);
    await expect(result.getByRole('tabpanel').innerText()).resolves.toContain(`"scripted.svg" ${SVG_POLICY} (found a <script> element)`);
    await shoot(page, 'refusals-test-moderate-svg-phone');
  });
});

describe('the reason in the creation error toast', () => {
  it.each(['phone', 'desktop'] as const)('shows the server’s reason for the refused logo on a %s', async (viewport) => {
    const page = await visit(await browser.newPage(viewport), '/', '[data-remote="create"]');
    const refused = scriptedSvg(`toast-${viewport}-${run}.svg`);
    await page.locator('[data-testid="upload-area"] input[type="file"]').setInputFiles([fixture('logo-ring.png'), refused]);
    await page.getByRole('button', { name: 'Get Votes!' }).click();
    const shown = await expectToast(page, 'Error', `"${refused.name}" ${SVG_POLICY} (found a <script> element)`);
    await expect(shown.getAttribute('data-variant')).resolves.toBe('destructive');
    await shoot(page, `refusals-create-toast-${viewport}`);
    // The refusal the toast reported is the admin's to see.
    await expect(eventuallyListed(refused.name)).resolves.toMatchObject({ stage: 'svg', status: 422 });
  });
});

describe('the reason of a moderation check in the creation error toast', () => {
  it('names the brand a wordmark impersonates', async () => {
    const page = await visit(await browser.newPage('phone'), '/', '[data-remote="create"]');
    const refused = await brandLogo(`brand-${run}.png`);
    await page.locator('[data-testid="upload-area"] input[type="file"]').setInputFiles([fixture('logo-ring.png'), refused]);
    await page.getByRole('button', { name: 'Get Votes!' }).click();
    await expectToast(page, 'Error', `"${refused.name}" ${BRAND_REFUSED}`);
    await shoot(page, 'refusals-create-toast-brand-phone');
    await expect(eventuallyListed(refused.name)).resolves.toMatchObject({ stage: 'moderation', status: 422, refusedBy: ['brands'] });
  });
});

describe('the admin’s list of refused uploads', () => {
  const notAnImage = `not-an-image-${run}.png`;
  const scripted = `scripted-${run}.svg`;
  /** Refused by the faces check, through the gateway like the others. */
  const moderated = `portrait-${run}.jpg`;

  beforeAll(async () => {
    const byType = await createThroughGateway([{ ...fixture('not-an-image.png'), name: notAnImage }]);
    expect(byType).toEqual({ status: 415, message: `"${notAnImage}" is not a PNG, JPEG, SVG or WebP image` });
    const bySvgPolicy = await createThroughGateway([fixture('logo-wave.svg'), scriptedSvg(scripted)]);
    expect(bySvgPolicy.status).toBe(422);
    const byModeration = await createThroughGateway([fixture('logo-wave.svg'), faceLogo(moderated)]);
    expect(byModeration.status).toBe(422);
    expect(byModeration.message).toMatch(`"${moderated}" ${FACE_REFUSED}`);
  });

  it('answers GET /api/admin/refusals only with the credentials, newest first, with stage, message and checks', async () => {
    const anonymous = await fetch(`${gatewayUrl}/api/admin/refusals`);
    expect(anonymous.status).toBe(401);
    await anonymous.body?.cancel();

    const byType = await eventuallyListed(notAnImage);
    expect(byType).toMatchObject({
      declaredType: 'image/png',
      size: fixture('not-an-image.png').buffer.length,
      stage: 'type',
      status: 415,
      message: `"${notAnImage}" is not a PNG, JPEG, SVG or WebP image`,
    });
    expect([byType.refusedBy, byType.checks]).toEqual([undefined, undefined]);
    const bySvgPolicy = await eventuallyListed(scripted);
    expect(bySvgPolicy).toMatchObject({ declaredType: 'image/svg+xml', stage: 'svg', status: 422 });
    expect(bySvgPolicy.message).toBe(`"${scripted}" ${SVG_POLICY} (found a <script> element)`);
    const byModeration = await eventuallyListed(moderated);
    expect(byModeration.refusedBy).toEqual(['faces']);
    expect(byModeration.checks?.map((check) => [check.check, check.isValid])).toEqual([
      ['nudity', true],
      ['faces', false],
      ['brands', true],
    ]);
    expect(Date.parse(byModeration.at)).toBeGreaterThanOrEqual(Date.parse(bySvgPolicy.at));
    expect(Date.parse(bySvgPolicy.at)).toBeGreaterThanOrEqual(Date.parse(byType.at));
  });

  /** The row of this file in the page's section, loading further pages until it shows. */
  async function rowOf(page: Page, fileName: string): Promise<Locator> {
    const section = page.getByTestId('refused-uploads');
    const rows = section.locator('[data-testid="refused-upload"]');
    const row = rows.filter({ has: page.getByText(fileName, { exact: true }) });
    await rows.first().waitFor({ timeout: 15_000 });
    // Other test files refuse uploads too: this one may be on a later page.
    while ((await row.count()) === 0) {
      const shown = await rows.count();
      const more = section.getByTestId('load-more-refusals');
      if ((await more.count()) === 0) throw new Error(`${fileName} is not in the section`);
      await more.click();
      await page.waitForFunction((before) => document.querySelectorAll('[data-testid="refused-upload"]').length > before, shown, {
        timeout: 15_000,
      });
    }
    return row;
  }

  it.each(['phone', 'desktop'] as const)(
    "shows them in 'Refused uploads (last 30 days)' on a %s: when, file, stage, reason, and each refusing check as a badge",
    async (viewport: ViewportName) => {
      await eventuallyListed(notAnImage);
      const page = await browser.newPage(viewport, ADMIN_BROWSER);
      await visit(page, '/admin/polls', '[data-remote="admin"]');
      const section = page.getByRole('region', { name: 'Refused uploads (last 30 days)' });
      await section.waitFor();

      const byModeration = await rowOf(page, moderated);
      await expect(byModeration.getByTestId('refused-stage').innerText()).resolves.toBe('Content moderation');
      const checks = byModeration.getByTestId('refusing-check');
      await expect(checks.evaluateAll((items) => items.map((item) => item.getAttribute('data-check')))).resolves.toEqual(['faces']);
      await expect(checks.locator('[data-slot="badge"]').allInnerTexts()).resolves.toEqual(['Faces']);
      await expect(checks.nth(0).innerText()).resolves.toContain('A photographic human face was found');
      await expect(byModeration.locator('time').getAttribute('datetime')).resolves.toMatch(/^\d{4}-\d\d-\d\dT/);

      const bySvgPolicy = await rowOf(page, scripted);
      await expect(bySvgPolicy.getByTestId('refused-stage').innerText()).resolves.toBe('Unsafe SVG');
      await expect(bySvgPolicy.getByTestId('refused-reason').innerText()).resolves.toContain(SVG_POLICY);

      const byType = await rowOf(page, notAnImage);
      await expect(byType.getByTestId('refused-stage').innerText()).resolves.toBe('Not an accepted type');
      await expect(byType.getByTestId('refused-reason').innerText()).resolves.toBe(`"${notAnImage}" is not a PNG, JPEG, SVG or WebP image`);
      await expect(byType.innerText()).resolves.toContain('image/png');

      await expectAccessible(page);
      await expectNoHorizontalOverflow(page);
      await byModeration.scrollIntoViewIfNeeded();
      await section.screenshot({ path: screenshotPath(`refusals-admin-section-${viewport}`) });
      await shoot(page, `refusals-admin-${viewport}`);
    },
  );
});
