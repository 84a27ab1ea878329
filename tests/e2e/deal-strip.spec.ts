// The deal's cards above the chat on a 390×844 phone: a card with something to do shows its buttons,
// and the question each of them asks before it acts, without the parent scrolling anything; and the
// chat header follows the deal live (an agreed trade that both confirm turns "Reservert" into
// "Byttet" at once). The held payment's card is checked the same way in held-payments.spec.ts.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { deleteAccount, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { expectSeenWhole } from "./support/in-view";
import { createListing } from "./support/listings";
import { ok } from "./support/requests";
import { screenshotToLookAt } from "./support/screenshots";

test.use({ viewport: { width: 390, height: 844 } });

const chatHeader = (page: Page) => page.getByRole("main").locator("header").first();

test("an agreed trade: 'Bekreft overlevering', 'Avbryt byttet' and its 'Ja'/'Nei' in view; the header turns 'Byttet' when both have confirmed", async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const other = await playwright.request.newContext({ baseURL });
  await signUpAndSignIn(page.request, uniqueEmail("strip-owner"), "Tone Eier");
  await signUpAndSignIn(other, uniqueEmail("strip-offerer"), "Per Tilbyder");
  try {
    const suffix = Date.now().toString(36);
    const wanted = await createListing(page.request, `E2E Togbane i tre med bro og tunnel ${suffix}`, { trade: true });
    const offer = (await ok(other, "/api/trade-offers", {
      requested_listing_id: wanted,
      offered_listing_id: await createListing(other, `E2E Sparkesykkel med lys ${suffix}`),
      message: "Hei! Sønnen min har vokst fra sykkelen, men den er som ny. Kan vi bytte på lørdag?",
    })) as { id: string; conversation_id: string };
    await ok(page.request, `/api/trade-offers/${offer.id}/accept`);

    await page.goto(`/chat/${offer.conversation_id}`);
    const card = page.getByRole("region", { name: "Bytteforslag" }).getByRole("article");
    await expect(card.getByText("Akseptert", { exact: true })).toBeVisible();
    await expect(chatHeader(page).getByText("Reservert", { exact: true })).toBeVisible();
    await screenshotToLookAt(page, "e2e-deal-strip-trade-accepted");
    await expectSeenWhole(card.getByRole("button", { name: "Bekreft overlevering" }), "Bekreft overlevering");
    await expectSeenWhole(card.getByRole("button", { name: "Avbryt byttet" }), "Avbryt byttet");
    // On a shorter screen (or with the keyboard up) the card no longer fits under the strip's cap:
    // the buttons stay at its lower edge, and the messages keep most of the screen.
    await page.setViewportSize({ width: 390, height: 600 });
    const strip = page.locator("[data-deal-strip]");
    await expect
      .poll(() => strip.evaluate((el) => el.scrollHeight > el.clientHeight), { message: "the card is cut by the cap" })
      .toBe(true);
    await screenshotToLookAt(page, "e2e-deal-strip-trade-short");
    await expectSeenWhole(card.getByRole("button", { name: "Bekreft overlevering" }), "Bekreft overlevering (600 px)");
    await expectSeenWhole(card.getByRole("button", { name: "Avbryt byttet" }), "Avbryt byttet (600 px)");
    await page.setViewportSize({ width: 390, height: 844 });

    // "Avbryt byttet" asks first; the question and both answers are in view too.
    await card.getByRole("button", { name: "Avbryt byttet" }).click();
    const confirm = card.getByRole("group", { name: "Bekreft" });
    await expect(confirm).toContainText("Avbryte byttet? Begge annonsene blir aktive igjen.");
    await screenshotToLookAt(page, "e2e-deal-strip-trade-cancel");
    await expectSeenWhole(confirm.getByText("Avbryte byttet? Begge annonsene blir aktive igjen."), "the question");
    await expectSeenWhole(confirm.getByRole("button", { name: "Ja" }), "Ja");
    await expectSeenWhole(confirm.getByRole("button", { name: "Nei" }), "Nei");
    await confirm.getByRole("button", { name: "Nei" }).click();

    // The other party confirms; this one confirms in the chat: the trade is done, and the header says so at once.
    await ok(other, `/api/trade-offers/${offer.id}/confirm`);
    await expect(card.getByText(/^Per Tilbyder har bekreftet overleveringen/)).toBeVisible({ timeout: 15_000 });
    await card.getByRole("button", { name: "Bekreft overlevering" }).click();
    await expect(card.getByText("Fullført", { exact: true })).toBeVisible();
    await expect(chatHeader(page).getByText("Byttet", { exact: true })).toBeVisible();
    await expect(chatHeader(page).getByText("Reservert", { exact: true })).toHaveCount(0);
    await screenshotToLookAt(page, "e2e-deal-strip-trade-done");
  } finally {
    await deleteAccount(page.request);
    await deleteAccount(other);
    await other.dispose();
  }
});
