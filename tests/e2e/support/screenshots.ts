// Screenshots for a person to look at (a new screen, a layout at 390 px): taken only when
// E2E_SCREENSHOTS names a folder, so a test run writes nothing outside its own output by default.
// `E2E_SCREENSHOTS=/tmp/shots npm run test:e2e -- tests/e2e/phone.spec.ts`, then open the files.
import type { Page } from "@playwright/test";

const FOLDER = process.env.E2E_SCREENSHOTS;

/** `<E2E_SCREENSHOTS>/<name>.png` of the page as it is now (the whole page with `fullPage`). */
export async function screenshotToLookAt(page: Page, name: string, { fullPage = false } = {}): Promise<void> {
  if (FOLDER) await page.screenshot({ path: `${FOLDER}/${name}.png`, fullPage });
}
