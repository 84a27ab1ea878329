// Reviews after a trade between two browsers: the trade is agreed, the seller
// confirms the handover last in the chat, the review prompt appears for both, each writes a review,
// and a review shows (on the profile, in the chat) only after both have written.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { deleteAccount, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { createListing } from "./support/listings";
import { ok } from "./support/requests";
import { expectAccessible, openSecondBrowser } from "./support/second-browser";

const prompt = (page: Page) => page.getByRole("region", { name: "Vurderinger" });

async function writeReview(page: Page, other: string, stars: number, text: string) {
  await prompt(page).getByRole("button", { name: "Gi vurdering" }).click();
  const dialog = page.getByRole("dialog", { name: `Gi ${other} en vurdering` });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole("radio", { name: new RegExp(`^${stars} av 5 stjerner`) }).check({ force: true });
  await dialog.getByRole("textbox", { name: "Skriv noen ord (valgfritt)" }).fill(text);
  await dialog.getByRole("button", { name: "Send vurdering" }).click();
  await expect(page.getByText("Takk for vurderingen!")).toBeVisible();
  await expect(dialog).toBeHidden();
}

test("complete a trade, both review; each review appears only after both have written", async ({ page: buyer, browser }) => {
  test.setTimeout(150_000);
  const { context: sellerContext, page: seller, policyReports } = await openSecondBrowser(browser);
  const suffix = Date.now().toString(36);
  await signUpAndSignIn(seller.request, uniqueEmail("review-seller"), "Randi Rask");
  await signUpAndSignIn(buyer.request, uniqueEmail("review-buyer"), "Bjørn Bytter");
  try {
    const wantedId = await createListing(seller.request, `E2E Dukkehus ${suffix}`, { trade: true });
    const offeredId = await createListing(buyer.request, `E2E Garasje ${suffix}`);
    const sellerId = ((await (await seller.request.get("/api/auth/session")).json()) as { user: { id: string } }).user.id;
    const buyerId = ((await (await buyer.request.get("/api/auth/session")).json()) as { user: { id: string } }).user.id;

    // The trade is proposed, accepted and confirmed by the buyer through the API (the UI of those
    // steps is tests/e2e/trades.spec.ts); the seller confirms last, in the chat.
    const offer = (await ok(buyer.request, "/api/trade-offers", { requested_listing_id: wantedId, offered_listing_id: offeredId })) as {
      id: string;
      conversation_id: string;
    };
    await ok(seller.request, `/api/trade-offers/${offer.id}/accept`);
    await ok(buyer.request, `/api/trade-offers/${offer.id}/confirm`);
    const chatPath = `/chat/${offer.conversation_id}`;
    await buyer.goto(chatPath);
    await seller.goto(chatPath);
    await expect(prompt(buyer)).toBeHidden();
    await seller.getByRole("region", { name: "Bytteforslag" }).getByRole("button", { name: "Bekreft overlevering" }).click();

    // The prompt appears for both; the buyer's live, with the room's event.
    await expect(prompt(seller)).toContainText("Handelen er fullført. Hvordan gikk det med Bjørn Bytter?");
    await expect(prompt(buyer)).toContainText("Handelen er fullført. Hvordan gikk det med Randi Rask?", { timeout: 10_000 });

    // The buyer writes first: blind — nobody sees it yet.
    await writeReview(buyer, "Randi Rask", 5, "Dukkehuset var i topp stand. Tusen takk!");
    await expect(prompt(buyer)).toContainText("Din vurdering av Randi Rask:");
    await expect(prompt(buyer)).toContainText("Vises når Randi Rask også har gitt sin vurdering");
    await seller.goto(`/bruker/${sellerId}`);
    await expect(seller.getByRole("heading", { level: 1, name: "Randi Rask" })).toBeVisible();
    await expect(seller.getByText("Randi Rask har ingen vurderinger ennå.")).toBeVisible();
    await expect(seller.getByText("Dukkehuset var i topp stand. Tusen takk!")).toHaveCount(0);

    // The seller is told there is a review waiting, without seeing it, and writes theirs.
    await seller.goto(chatPath);
    await expect(
      seller.getByRole("log").getByText(/^Bjørn Bytter har gitt en vurdering av handelen\. Gi din vurdering innen /),
    ).toBeVisible();
    await expect(prompt(seller)).toContainText("Bjørn Bytter har gitt deg en vurdering. Gi din for å se den.");
    await expect(prompt(seller)).not.toContainText("Dukkehuset var i topp stand");
    await writeReview(seller, "Bjørn Bytter", 4, "Hyggelig bytte, kom litt sent.");
    await expect(prompt(seller)).toContainText("Bjørn Bytters vurdering av deg:");
    await expect(prompt(seller)).toContainText("«Dukkehuset var i topp stand. Tusen takk!»");
    await expect(
      seller.getByRole("log").getByText("Dere har begge gitt en vurdering. Vurderingene vises nå på profilene deres."),
    ).toBeVisible();

    // Now both show: on the profiles (with the average) and in the buyer's chat.
    await seller.goto(`/bruker/${sellerId}`);
    await expect(seller.getByText("5,0 av 5")).toBeVisible();
    await expect(seller.getByRole("heading", { name: "Vurderinger (1)" })).toBeVisible();
    await expect(seller.getByText("Dukkehuset var i topp stand. Tusen takk!")).toBeVisible();
    await expect(seller.getByText("Bjørn Bytter · Bytte")).toBeVisible();
    await expectAccessible(seller);
    await buyer.goto(`/bruker/${buyerId}`);
    await expect(buyer.getByText("Hyggelig bytte, kom litt sent.")).toBeVisible();
    await expect(buyer.getByRole("img", { name: "4 av 5 stjerner" })).toBeVisible();
    await buyer.goto(chatPath);
    await expect(prompt(buyer)).toContainText("Randi Rasks vurdering av deg:");
    await expect(prompt(buyer)).toContainText("«Hyggelig bytte, kom litt sent.»");
    await expect(prompt(buyer).getByRole("button", { name: "Gi vurdering" })).toHaveCount(0);

    // The seller card on the seller's other listings shows the average and links to the profile.
    const otherId = await createListing(seller.request, `E2E Lekekjøkken ${suffix}`);
    await buyer.goto(`/listing/${otherId}`);
    await buyer.getByRole("link", { name: "5,0 av 5 (1 vurdering)" }).click();
    await expect(buyer).toHaveURL(new RegExp(`/bruker/${sellerId}$`));
    await expect(buyer.getByRole("heading", { level: 1, name: "Randi Rask" })).toBeVisible();
    expect(policyReports).toEqual([]);
  } finally {
    await deleteAccount(seller.request);
    await deleteAccount(buyer.request);
    await sellerContext.close();
  }
});
