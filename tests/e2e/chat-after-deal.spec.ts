// The chat once a deal has happened, on a 390×844 phone, in the demo conversation about
// Kari's "Bøker om dinosaurer (6 stk)" (scripts/seed/data.ts DEMO_DEALS): Ola's refused offer, the
// completed trade, the notices and the open review prompt, over three days.
// - The messages get most of the screen: the list is at least 60% of the screen above the composer,
//   and everything above it (site header, chat header, offer cards, review prompt) plus any notice
//   at most a third of the screen, with the connection down too ("Kobler til …").
// - Finished and refused offers are one line each, and open on a tap; each state its own colour.
// - No day label covers message text, wherever the list is scrolled.
// - The parties open what they traded from the chat header, read only and marked "Byttet"; so does a
//   visitor (decision 117).
// - Answered, the review prompt is one line (on a deal of the test's own, made the same way: the
//   demo deal stays as seeded for the other tests and the specs that run beside this one).
// The fixture runs axe on every page (contrast of the badges included).
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { deleteAccount, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { createListing } from "./support/listings";
import { ok } from "./support/requests";
import { screenshotToLookAt } from "./support/screenshots";

const DEMO_PASSWORD = "lekebytte123";
const TITLE = "Bøker om dinosaurer (6 stk)";
const VIEWPORT = { width: 390, height: 844 };
const THIRD = VIEWPORT.height / 3;

test.use({ viewport: VIEWPORT });

async function openDinosaurChat(page: Page, email: string): Promise<string> {
  const signIn = await page.request.post("/api/auth/signin", { data: { email, password: DEMO_PASSWORD } });
  expect(signIn.status(), await signIn.text()).toBe(200);
  const conversations = (await (await page.request.get("/api/conversations")).json()) as {
    id: string;
    listing: { id: string; title: string };
  }[];
  const conversation = conversations.find((c) => c.listing.title === TITLE);
  expect(conversation, "the demo data has the dinosaur-book chat").toBeTruthy();
  await page.goto(`/chat/${conversation!.id}`);
  await expect(messageList(page).getByText("Ha en fin helg, og takk for et fint bytte!")).toBeVisible();
  await expect(page.getByRole("region", { name: "Vurderinger" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Bytteforslag" }).getByRole("article")).toHaveCount(2);
  return conversation!.listing.id;
}

const messageList = (page: Page) => page.getByRole("region", { name: "Samtalen" });

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  expect(b, "visible").not.toBeNull();
  return b!;
}

/** The list's height, the composer's, and how much of the screen the rest takes (above the list plus notices). */
async function layout(page: Page) {
  const list = await box(messageList(page));
  const composer = await box(page.getByRole("textbox", { name: /melding/i }).locator("xpath=ancestor::form"));
  const notice = page.getByRole("status").filter({ hasText: "Kobler til" });
  const noticeHeight = (await notice.count()) > 0 && (await notice.isVisible()) ? (await box(notice)).height : 0;
  return { list: list.height, composer: composer.height, chrome: list.y + noticeHeight };
}

async function expectMessagesKeepTheScreen(page: Page) {
  const { list, composer, chrome } = await layout(page);
  expect(list, `message list ${list}px of ${VIEWPORT.height - composer}px above the composer`).toBeGreaterThanOrEqual(
    0.6 * (VIEWPORT.height - composer),
  );
  expect(chrome, `header, cards and notices take ${chrome}px`).toBeLessThanOrEqual(THIRD);
}

/** No day label overlaps the text of any message, at the list's current scroll position. */
async function expectDayLabelsClear(page: Page) {
  const overlaps = await messageList(page).evaluate((list) => {
    const found: string[] = [];
    const view = list.getBoundingClientRect();
    const labels = Array.from(list.querySelectorAll("h2")).map((h) => ({ text: h.textContent, r: h.getBoundingClientRect() }));
    for (const p of Array.from(list.querySelectorAll("li p"))) {
      const r = p.getBoundingClientRect();
      if (r.bottom <= view.top || r.top >= view.bottom) continue;
      for (const label of labels) {
        const hit = r.left < label.r.right && label.r.left < r.right && r.top < label.r.bottom && label.r.top < r.bottom;
        if (hit) found.push(`"${label.text}" covers "${p.textContent?.slice(0, 40)}"`);
      }
    }
    return found;
  });
  expect(overlaps).toEqual([]);
}

test("after a trade the messages keep the screen; finished offers are one line each; no day label covers a message", async ({ page }) => {
  await openDinosaurChat(page, "kari@lekebytte.test");
  await screenshotToLookAt(page, "e2e-chat-after-deal-kari");
  await expectMessagesKeepTheScreen(page);

  // The refused and the completed offer: one line each, with its own colour, opening on a tap.
  const offers = page.getByRole("region", { name: "Bytteforslag" }).getByRole("article");
  const completed = offers.filter({ hasText: "Fullført" });
  const rejected = offers.filter({ hasText: "Avslått" });
  for (const card of [completed, rejected]) {
    expect((await box(card)).height).toBeLessThanOrEqual(48);
    await expect(card.getByRole("button")).toHaveAttribute("aria-expanded", "false");
  }
  const colour = (card: Locator, label: string) =>
    card.getByText(label, { exact: true }).evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(await colour(completed, "Fullført")).not.toBe(await colour(rejected, "Avslått"));

  // The prompt is one line too: the question and "Gi vurdering".
  const prompt = page.getByRole("region", { name: "Vurderinger" });
  await expect(prompt).toContainText("Hvordan gikk det med Ola Hansen?");
  expect((await box(prompt)).height).toBeLessThanOrEqual(52);

  // Opened, the card shows what was traded; the strip scrolls rather than grow past its cap.
  await completed.getByRole("button").click();
  await expect(completed.getByRole("button")).toHaveAttribute("aria-expanded", "true");
  await expect(completed.getByText("Ola Hansen foreslo et bytte")).toBeVisible();
  await expectMessagesKeepTheScreen(page);
  await completed.getByRole("button").click();

  // Day labels stay clear of the messages at the bottom, the middle and the top of the list.
  const list = messageList(page);
  for (const position of ["bottom", "middle", "top"] as const) {
    await list.evaluate((el, where) => {
      el.scrollTop = where === "bottom" ? el.scrollHeight : where === "middle" ? (el.scrollHeight - el.clientHeight) / 2 : 0;
    }, position);
    await expectDayLabelsClear(page);
  }
});

test("with the connection down ('Kobler til …') the messages still keep the screen", async ({ page }) => {
  // Every attempt to open the room's socket is closed at once: the chat keeps reconnecting.
  await page.routeWebSocket(/\/live\b/, (ws) => ws.close());
  await openDinosaurChat(page, "kari@lekebytte.test");
  await expect(page.getByRole("status").filter({ hasText: "Kobler til" })).toBeVisible();
  await expectMessagesKeepTheScreen(page);
});

test("the parties open what they traded from the chat header, read only and marked 'Byttet'; a visitor sees it so too", async ({
  page,
  browser,
  baseURL,
}) => {
  const listingId = await openDinosaurChat(page, "ola@lekebytte.test");
  await page.locator(`main header a[href="/listing/${listingId}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/listing/${listingId}$`));
  await expect(page.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Annonsen er byttet." })).toBeVisible();
  await expect(page.getByText("Byttet", { exact: true })).toBeVisible();
  await expect(page.getByText("Kunne ikke hente annonse")).toHaveCount(0);
  for (const name of [/^Kjøp nå/, /^Send melding/, /^Foreslå bytte/]) await expect(page.getByRole("button", { name })).toHaveCount(0);
  // The page's own top bar: back and share, no favourite or report (the seller's other listings keep theirs).
  const topBar = page.getByRole("button", { name: "Tilbake", exact: true }).locator("xpath=..");
  await expect(topBar.getByRole("button", { name: "Del annonsen" })).toBeVisible();
  await expect(topBar.getByRole("button", { name: /favoritter|Rapporter annonse/ })).toHaveCount(0);
  await screenshotToLookAt(page, "e2e-chat-after-deal-listing");

  // A visitor (no session) gets the same read-only page from the edge, not "404 - Siden finnes ikke".
  const visitor = await browser.newContext({ baseURL, viewport: VIEWPORT });
  // Consent answered, as the fixture does for `page`, so the banner covers nothing.
  await visitor.addInitScript(() => window.localStorage.setItem("lb_consent", "necessary"));
  const visitorPage = await visitor.newPage();
  const res = await visitorPage.goto(`/listing/${listingId}`);
  expect(res?.status()).toBe(200);
  await expect(visitorPage.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
  await expect(visitorPage.getByRole("status").filter({ hasText: "Annonsen er byttet." })).toBeVisible();
  await expect(visitorPage.getByText("Byttet", { exact: true })).toBeVisible();
  await expect(visitorPage.getByText("404 - Siden finnes ikke")).toHaveCount(0);
  for (const name of [/^Kjøp nå/, /^Send melding/, /^Foreslå bytte/, /^Jeg vil ha den/])
    await expect(visitorPage.getByRole("button", { name })).toHaveCount(0);
  await screenshotToLookAt(visitorPage, "e2e-traded-listing-visitor", { fullPage: true });
  await visitor.close();
});

test("once answered, the review prompt is one line that opens the review in view", async ({ page, playwright, baseURL }) => {
  test.setTimeout(60_000);
  // A deal of this test's own, made as the dinosaur-book one (a refused offer, then a completed
  // trade): answering the review changes the deal, and the demo's is read by the tests above.
  const other = await playwright.request.newContext({ baseURL });
  await signUpAndSignIn(page.request, uniqueEmail("deal-seller"), "Kari Selger");
  await signUpAndSignIn(other, uniqueEmail("deal-buyer"), "Ola Bytter");
  try {
    const suffix = Date.now().toString(36);
    const wanted = await createListing(page.request, `E2E Dinosaurbøker ${suffix}`, { trade: true });
    const refused = (await ok(other, "/api/trade-offers", {
      requested_listing_id: wanted,
      offered_listing_id: await createListing(other, `E2E Lekebil ${suffix}`),
    })) as { id: string; conversation_id: string };
    await ok(page.request, `/api/trade-offers/${refused.id}/reject`);
    const traded = (await ok(other, "/api/trade-offers", {
      requested_listing_id: wanted,
      offered_listing_id: await createListing(other, `E2E Gulvpuslespill ${suffix}`),
    })) as { id: string };
    await ok(page.request, `/api/trade-offers/${traded.id}/accept`);
    await ok(other, `/api/trade-offers/${traded.id}/confirm`);
    await ok(page.request, `/api/trade-offers/${traded.id}/confirm`);
    await page.goto(`/chat/${refused.conversation_id}`);
    await expect(page.getByRole("region", { name: "Bytteforslag" }).getByRole("article")).toHaveCount(2);

    // Kari answers.
    const prompt = page.getByRole("region", { name: "Vurderinger" });
    await prompt.getByRole("button", { name: "Gi vurdering" }).click();
    const dialog = page.getByRole("dialog", { name: "Gi Ola Bytter en vurdering" });
    await dialog.getByRole("radio", { name: /^5 av 5 stjerner/ }).check({ force: true });
    await dialog.getByRole("button", { name: "Send vurdering" }).click();
    await expect(dialog).toBeHidden();
    const summary = prompt.getByRole("button", { expanded: false });
    await expect(summary).toContainText("Din vurdering");
    expect((await box(prompt)).height).toBeLessThanOrEqual(48);
    await expectMessagesKeepTheScreen(page);

    // Opened, the review is brought into the strip's view (the strip scrolls, the page does not).
    await summary.click();
    const mine = prompt.getByText("Din vurdering av Ola Bytter:");
    await expect(mine).toBeVisible();
    const strip = await box(page.locator("[data-deal-strip]"));
    await expect
      .poll(async () => {
        const b = await box(mine);
        return b.y >= strip.y && b.y + b.height <= strip.y + strip.height;
      })
      .toBe(true);
    await expectMessagesKeepTheScreen(page);
  } finally {
    await deleteAccount(page.request);
    await deleteAccount(other);
    await other.dispose();
  }
});
