// Layout shift on the chat: the strip above the messages (offer cards, review prompt)
// used to arrive after the messages' frame had painted and pushed it down (CLS 0.12 in Lighthouse).
// Measured, not timed: the browser's own layout-shift entries while the page loads and settles,
// summed as CLS counts them (shifts right after input left out), must stay under 0.05.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { DEMO_LISTINGS, DEMO_PASSWORD } from "./support/demo";

// A phone, as Lighthouse's mobile preset measures it.
test.use({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });

async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: { value: number; hadRecentInput: boolean; sources: string[] }[] = [];
    (window as unknown as { __layoutShifts: typeof shifts }).__layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node | null }[];
      })[]) {
        const sources = (entry.sources ?? []).map((s) =>
          s.node instanceof Element ? s.node.outerHTML.slice(0, 120) : String(s.node?.nodeName),
        );
        shifts.push({ value: entry.value, hadRecentInput: entry.hadRecentInput, sources });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

test("the chat with a trade offer opens without a layout shift (CLS < 0.05)", async ({ page }) => {
  const signIn = await page.request.post("/api/auth/signin", { data: { email: "kari@lekebytte.test", password: DEMO_PASSWORD } });
  expect(signIn.status(), await signIn.text()).toBe(200);
  const conversations = (await (await page.request.get("/api/conversations")).json()) as { id: string; listing: { title: string } }[];
  const chat = conversations.find((c) => c.listing.title === DEMO_LISTINGS.olasTrade);
  expect(chat, "Kari's conversation about Ola's trade listing").toBeDefined();

  await recordLayoutShifts(page);
  // A phone's CPU, as Lighthouse simulates it: the strip's answer and the first paint are further apart.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.goto(`/chat/${chat!.id}`);
  await expect(page.getByRole("region", { name: "Bytteforslag" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Samtalen" }).getByRole("listitem").first()).toBeVisible();

  const shifts = await page.evaluate(
    () => (window as unknown as { __layoutShifts: { value: number; hadRecentInput: boolean; sources: string[] }[] }).__layoutShifts,
  );
  const cls = shifts.filter((s) => !s.hadRecentInput).reduce((sum, s) => sum + s.value, 0);
  expect(cls, `layout shifts: ${JSON.stringify(shifts, null, 1)}`).toBeLessThan(0.05);
  // A throttled page's main thread spins even while idle; the closing scan needs no slow phone.
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
});
