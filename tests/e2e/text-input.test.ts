/**
 * A creator who pastes a character no text field takes (SECURITY.md "Text input") learns what is wrong from the
 * server's message in the page's error toast, and can fix it and go on: no poll is made from the refused text.
 */
import type { Page } from 'playwright-core';
import { expectToast, fixture, shoot, useBrowser, visit } from '../support/web';

const browser = useBrowser();

async function tryToCreate(page: Page, files: ReturnType<typeof fixture>[], question: string): Promise<number> {
  await page.locator('[data-testid="upload-area"] input[type="file"]').setInputFiles(files);
  await page.getByLabel('Feedback question (optional)').fill(question);
  const answer = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/sessions' && res.request().method() === 'POST');
  await page.getByRole('button', { name: 'Get Votes!' }).click();
  return (await answer).status();
}

describe('text the create page refuses', () => {
  it("shows the server's message for a question holding a right-to-left override, and keeps the page usable", async () => {
    const page = await browser.newPage('phone');
    await visit(page, '/', '[data-remote="create"]');
    await expect(tryToCreate(page, [fixture('logo-ring.png'), fixture('logo-wave.svg')], 'Which one?\u202E !ti kcip')).resolves.toBe(400);
    await expectToast(page, 'Error', 'The question must not contain invisible text-direction controls');
    await page.locator('[data-testid="creation-dialog"]').waitFor({ state: 'detached' });
    await shoot(page, 'create-refused-question-phone');
    await expect(page.getByRole('button', { name: 'Get Votes!' }).isEnabled()).resolves.toBe(true);
  });

  it("shows the server's message for a file whose name hides its extension", async () => {
    const page = await browser.newPage('desktop');
    await visit(page, '/', '[data-remote="create"]');
    const spoofed = { ...fixture('logo-ring.png'), name: 'invoice\u202Egnp.png' };
    await expect(tryToCreate(page, [spoofed, fixture('logo-wave.svg')], 'Which one?')).resolves.toBe(400);
    await expectToast(page, 'Error', 'The file name must not contain invisible text-direction controls');
  });
});
