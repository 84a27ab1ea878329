// A chat socket lives no longer than its session (docs/decisions/080): when the same
// browser signs out in another tab, the open chat's socket is closed by the server at once and the
// page does not reconnect it (with the old client it was back within a second).
import type { WebSocket as PlaywrightSocket } from "@playwright/test";
import { expect, test } from "./fixtures";
import { deleteAccount, E2E_PASSWORD, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { createListing } from "./support/listings";
import { openSecondBrowser } from "./support/second-browser";
import { screenshotToLookAt } from "./support/screenshots";

test("signing out in another tab closes the open chat's socket, and it stays closed", async ({ page: buyer, browser }) => {
  test.setTimeout(90_000);
  await buyer.setViewportSize({ width: 390, height: 844 });
  const { context: sellerContext, page: seller } = await openSecondBrowser(browser);
  const buyerEmail = uniqueEmail("socket-buyer");
  await signUpAndSignIn(seller.request, uniqueEmail("socket-seller"), "Selma Selger");
  await signUpAndSignIn(buyer.request, buyerEmail, "Kjell Kjøper");
  try {
    const listingId = await createListing(seller.request, `E2E Brio tog ${Date.now().toString(36)}`);
    // The buyer's clock is Playwright's (it runs as usual), so the retries' timers can be run at once below.
    await buyer.clock.install();
    const chatSockets: PlaywrightSocket[] = [];
    buyer.on("websocket", (ws) => {
      if (/\/api\/conversations\/[0-9a-f-]{36}\/live/.test(ws.url())) chatSockets.push(ws);
    });
    await buyer.goto(`/listing/${listingId}`);
    await buyer.getByRole("button", { name: "Send melding" }).click();
    await expect(buyer).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
    const field = buyer.getByRole("textbox", { name: "Melding" });
    await field.fill("Hei! Er toget ledig?");
    await field.press("Enter");
    await expect(buyer.getByRole("log").getByText("Hei! Er toget ledig?")).toBeVisible();
    await expect.poll(() => chatSockets.length).toBe(1);
    await screenshotToLookAt(buyer, "h20-chat-before-signout");

    // Another tab of the same browser signs out (the cookies are shared).
    const otherTab = await buyer.context().newPage();
    expect((await otherTab.request.post("/api/auth/signout")).status()).toBe(204);
    await expect.poll(() => chatSockets[0].isClosed(), { timeout: 5_000 }).toBe(true);
    // The page learns it is signed out (the chat is for signed-in users) ...
    await expect(buyer.getByRole("log")).toBeHidden({ timeout: 5_000 });
    await screenshotToLookAt(buyer, "h20-chat-after-signout");
    // ... and the old client's retries after 1 s and 2 s do not happen: every timer due within the
    // next 4 s runs now, and a retry would open a second socket (seen once the page answers again).
    await buyer.clock.runFor(4_000);
    await buyer.evaluate(() => document.readyState);
    expect(chatSockets).toHaveLength(1);
    await otherTab.close();
  } finally {
    await deleteAccount(seller.request);
    // Signed out: sign in again to remove the test account.
    await buyer.request.post("/api/auth/signin", { data: { email: buyerEmail, password: E2E_PASSWORD } });
    await deleteAccount(buyer.request);
    await sellerContext.close();
  }
});
