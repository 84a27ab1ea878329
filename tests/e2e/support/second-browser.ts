// A second person in an end-to-end test: their own browser context, guarded like the fixture's page.
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { axeViolations, expect } from "../fixtures";

export interface SecondBrowser {
  context: BrowserContext;
  page: Page;
  /** Content-Security-Policy reports the page raised (the test expects none). */
  policyReports: string[];
}

/**
 * The fixture guards only the test's own page: the second browser answers the consent banner the
 * same way ("Bare nødvendige") and collects Content-Security-Policy reports for the test to check.
 */
export async function openSecondBrowser(browser: Browser): Promise<SecondBrowser> {
  const context = await browser.newContext();
  await context.addInitScript(() => window.localStorage.setItem("lb_consent", "necessary"));
  const page = await context.newPage();
  const policyReports: string[] = [];
  page.on("console", (message) => {
    if (/Content.Security.Policy/i.test(message.text())) policyReports.push(`${page.url()}: ${message.text()}`);
  });
  return { context, page, policyReports };
}

/** The same axe rules the fixture applies to the main page, for the second browser's pages. */
export async function expectAccessible(page: Page): Promise<void> {
  const serious = (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}
