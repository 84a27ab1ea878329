// Where the chat's message list stands (docs/product.md "Messages and chat"): it opens at the newest
// message with the composer on screen, follows a new message while the reader is at the bottom,
// leaves a reader who has scrolled up where they are, and goes to the reader's own message when they
// send one from anywhere.
import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures";
import { deleteAccount, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { createListing } from "./support/listings";

/** Pixels between the bottom of what the list shows and the bottom of the list. */
const fromBottom = (list: Locator) => list.evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight));

/** Enough text per message that a dozen of them are several screens on a phone. */
const longMessage = (n: number) =>
  `Melding ${n}: Hei igjen! Jeg lurer fortsatt på om brannbilen har alle delene, og om stigen kan heises opp og ned som den skal.`;

test("the chat opens at the newest message and follows new ones unless the reader has scrolled up", async ({ page: buyer, browser }) => {
  test.setTimeout(120_000);
  // The seller only sends through the API: a context of their own, with no page.
  const sellerContext = await browser.newContext();
  const seller = sellerContext.request;
  await signUpAndSignIn(seller, uniqueEmail("scroll-seller"), "Siri Selger");
  await signUpAndSignIn(buyer.request, uniqueEmail("scroll-buyer"), "Kåre Kjøper");
  try {
    const listingId = await createListing(seller, `E2E Brannbil med stige ${Date.now().toString(36)}`);
    const started = await buyer.request.post("/api/conversations", { data: { listing_id: listingId } });
    expect(started.status(), await started.text()).toBe(201);
    const { id } = (await started.json()) as { id: string };
    const send = async (from: typeof seller, content: string) => {
      const res = await from.post(`/api/conversations/${id}/messages`, { data: { id: crypto.randomUUID(), content } });
      expect(res.status(), await res.text()).toBe(201);
    };
    for (let n = 1; n <= 14; n++) await send(buyer.request, longMessage(n));

    await buyer.goto(`/chat/${id}`);
    const list = buyer.getByRole("region", { name: "Samtalen" });
    const log = buyer.getByRole("log", { name: "Meldinger" });
    await expect(log.getByText(longMessage(14))).toBeInViewport({ ratio: 1 });
    // Several screens of messages, shown from the bottom, with the composer below them on screen.
    expect(await list.evaluate((el) => el.scrollHeight > 2 * el.clientHeight)).toBe(true);
    await expect.poll(() => fromBottom(list)).toBeLessThanOrEqual(1);
    await expect(buyer.getByRole("textbox", { name: "Melding" })).toBeInViewport();
    await expect(log.getByText(longMessage(1))).not.toBeInViewport();

    // At the bottom, the other party's message is followed.
    await send(seller, "Ja, alle delene er med, og stigen virker.");
    await expect(log.getByText("Ja, alle delene er med, og stigen virker.")).toBeInViewport({ ratio: 1 });
    await expect.poll(() => fromBottom(list)).toBeLessThanOrEqual(1);

    // Scrolled up to the first message, the reader stays there when the next one comes.
    await list.evaluate((el) => {
      el.scrollTop = 0;
    });
    await expect(log.getByText(longMessage(1))).toBeInViewport();
    await send(seller, "Du kan hente den i morgen.");
    await expect(log.getByText("Du kan hente den i morgen.")).toBeAttached();
    await expect(log.getByText(longMessage(1))).toBeInViewport();
    expect(await list.evaluate((el) => el.scrollTop)).toBe(0);

    // The reader's own message, sent from up there, is scrolled to.
    const field = buyer.getByRole("textbox", { name: "Melding" });
    await field.fill("Flott, jeg kommer klokka fem.");
    await field.press("Enter");
    await expect(log.getByText("Flott, jeg kommer klokka fem.")).toBeInViewport({ ratio: 1 });
  } finally {
    await deleteAccount(buyer.request);
    await deleteAccount(seller);
    await sellerContext.close();
  }
});
