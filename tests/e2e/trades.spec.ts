// A trade between two browsers: the buyer proposes a trade from the listing
// page, the seller accepts it in the chat, both confirm the handover, and each finds the trade under
// "Fullført" in the trade history. The offer card updates live on the other side at every step.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { deleteAccount, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { createListing } from "./support/listings";
import { expectAccessible, openSecondBrowser } from "./support/second-browser";

const card = (page: Page) => page.getByRole("region", { name: "Bytteforslag" }).getByRole("article");

test("propose a trade, accept it, confirm the handover from both sides, find it under 'Fullført'", async ({ page: buyer, browser }) => {
  test.setTimeout(150_000);
  const { context: sellerContext, page: seller, policyReports } = await openSecondBrowser(browser);
  const suffix = Date.now().toString(36);
  const wantedTitle = `E2E Playmobil borg ${suffix}`;
  const offeredTitle = `E2E Brio togbane ${suffix}`;
  await signUpAndSignIn(seller.request, uniqueEmail("trade-seller"), "Selma Selger");
  await signUpAndSignIn(buyer.request, uniqueEmail("trade-buyer"), "Kjell Kjøper");
  try {
    const wantedId = await createListing(seller.request, wantedTitle, { trade: true });
    await createListing(buyer.request, offeredTitle);

    // The buyer proposes from the listing page.
    await buyer.goto(`/listing/${wantedId}`);
    await buyer.getByRole("button", { name: "Foreslå bytte" }).click();
    await expect(buyer).toHaveURL(new RegExp(`/trade-offer/${wantedId}$`));
    await expect(buyer.getByRole("heading", { level: 1, name: "Foreslå bytte" })).toBeVisible();
    await expect(buyer.getByRole("heading", { name: "Du vil ha denne" })).toBeVisible();
    await expect(buyer.getByText(wantedTitle)).toBeVisible();
    const send = buyer.getByRole("button", { name: "Send bytteforslag" });
    await expect(send).toBeDisabled();
    await buyer
      .getByRole("group", { name: "Velg hva du vil tilby i bytte" })
      .getByRole("radio", { name: new RegExp(offeredTitle) })
      .check();
    await buyer.getByRole("textbox", { name: "Melding (valgfritt)" }).fill("  Hei! Vil du bytte?  ");
    await expect(send).toBeEnabled();
    await send.click();
    await expect(buyer.getByText("Bytteforslag sendt!")).toBeVisible();
    await expect(buyer).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
    const chatPath = new URL(buyer.url()).pathname;
    await expect(card(buyer)).toContainText("Venter på svar...");
    await expect(card(buyer)).toContainText("Venter");
    await expect(card(buyer)).toContainText("7d igjen");
    await expect(card(buyer)).toContainText("Hei! Vil du bytte?");
    await buyer.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

    // The seller opens the chat: the card with both listings, the message and the buttons.
    await seller.goto(chatPath);
    await expect(card(seller)).toContainText("Kjell Kjøper foreslo et bytte");
    await expect(card(seller)).toContainText(offeredTitle);
    await expect(card(seller)).toContainText(wantedTitle);
    await expect(seller.getByRole("log").getByText(`Nytt bytteforslag: «${offeredTitle}» mot «${wantedTitle}».`)).toBeVisible();
    await expectAccessible(seller);
    await seller.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await card(seller).getByRole("button", { name: "Aksepter" }).click();
    await expect(seller.getByText("Bytteforslag akseptert!")).toBeVisible();
    await expect(seller.getByText("Dere kan nå avtale videre detaljer", { exact: true })).toBeVisible();
    await expect(card(seller)).toContainText("Akseptert");

    // The buyer's card follows live, and the buyer confirms the handover first.
    await expect(card(buyer)).toContainText("Akseptert", { timeout: 5_000 });
    await card(buyer).getByRole("button", { name: "Bekreft overlevering" }).click();
    await expect(card(buyer)).toContainText("Du har bekreftet overleveringen. Venter på at Selma Selger bekrefter.");
    await expect(card(seller)).toContainText("Kjell Kjøper har bekreftet overleveringen.", { timeout: 5_000 });
    await card(seller).getByRole("button", { name: "Bekreft overlevering" }).click();
    await expect(card(seller)).toContainText("Fullført");
    await expect(card(buyer)).toContainText("Fullført", { timeout: 5_000 });
    await expect(buyer.getByRole("log").getByText("Byttet er fullført! Begge har bekreftet overleveringen.")).toBeVisible();
    for (const p of [buyer, seller])
      expect(await p.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

    // Both find the trade under "Fullført" in the trade history, linked from the profile menu.
    for (const [page, other, mine, theirs] of [
      [buyer, "Selma Selger", offeredTitle, wantedTitle],
      [seller, "Kjell Kjøper", wantedTitle, offeredTitle],
    ] as const) {
      await page.getByRole("button", { name: "Min konto" }).click();
      await page.getByRole("menuitem", { name: "Byttehistorikk" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Byttehistorikk" })).toBeVisible();
      await expect(page.getByRole("tab", { name: "Sendt (" })).toHaveAttribute("aria-selected", "true");
      const completed = page.getByRole("tab", { name: "Fullført (1)" });
      await completed.click();
      const trade = page
        .getByRole("tabpanel")
        .getByRole("listitem")
        .filter({ hasText: `Bytte med ${other}` });
      await expect(trade).toBeVisible();
      await expect(trade).toContainText(`Din leke${mine}`);
      await expect(trade).toContainText(`Deres leke${theirs}`);
      await expect(trade).toContainText("Fullført");
    }
    await expect(buyer.getByRole("tab", { name: "Sendt (1)" })).toBeVisible();
    await expectAccessible(seller);
    expect(policyReports).toEqual([]);
  } finally {
    await deleteAccount(seller.request);
    await deleteAccount(buyer.request);
    await sellerContext.close();
  }
});

test("no own active listings: 'Ingen annonser å bytte med' with 'Legg ut annonse'; a missing listing: 'Annonse ikke funnet'", async ({
  page,
}) => {
  const seller = await openSecondBrowser(page.context().browser()!);
  await signUpAndSignIn(seller.page.request, uniqueEmail("trade-owner"), "Olav Eier");
  await signUpAndSignIn(page.request, uniqueEmail("trade-empty"), "Tom Tomhendt");
  try {
    const wantedId = await createListing(seller.page.request, `E2E Lego båt ${Date.now().toString(36)}`, { trade: true });
    await page.goto(`/trade-offer/${wantedId}`);
    await expect(page.getByRole("heading", { name: "Ingen annonser å bytte med" })).toBeVisible();
    await expect(page.getByText("Du må ha aktive annonser for å kunne foreslå bytte")).toBeVisible();
    await expect(page.getByRole("link", { name: "Legg ut annonse" })).toHaveAttribute("href", "/create-listing");
    await page.goto(`/trade-offer/${crypto.randomUUID()}`);
    await expect(page.getByRole("heading", { name: "Annonse ikke funnet" })).toBeVisible();
    await page.getByRole("link", { name: "Tilbake til forsiden" }).click();
    await expect(page).toHaveURL(/\/$/);
  } finally {
    await deleteAccount(seller.page.request);
    await deleteAccount(page.request);
    await seller.context.close();
  }
});
