// The give-away queue in three browsers: two takers say "Jeg vil ha den" to
// a free listing with a short message, the giver sees them in order, reserves it for the second,
// agrees the pickup in the chat the reservation opened and marks it given away; the first is told
// in the app (the account menu's notice, "Mine køplasser") and by e-mail in the local outbox.
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { deleteAccount, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { publishListing } from "./support/listings";
import { expectAccessible, openSecondBrowser } from "./support/second-browser";
import { screenshotToLookAt } from "./support/screenshots";

const outboxTo = async (request: APIRequestContext, to: string) =>
  (await (await request.get(`/api/dev/mail.json?to=${encodeURIComponent(to)}`)).json()) as { subject: string; text_body: string }[];

async function wantIt(page: Page, listingId: string, message: string) {
  await page.goto(`/listing/${listingId}`);
  await page.getByRole("button", { name: "Jeg vil ha den" }).click();
  const dialog = page.getByRole("dialog", { name: "Jeg vil ha den" });
  await dialog.getByRole("textbox", { name: "Melding til giveren" }).fill(message);
  await dialog.getByRole("button", { name: "Still meg i køen" }).click();
  await expect(dialog).toBeHidden();
}

test("two takers queue for a free listing; the giver reserves it for the second and gives it away; the first is told in the app and by e-mail", async ({
  page: giver,
  browser,
}) => {
  test.setTimeout(150_000);
  const first = await openSecondBrowser(browser);
  const second = await openSecondBrowser(browser);
  const suffix = Date.now().toString(36);
  const title = `E2E Duplo brannstasjon ${suffix}`;
  const firstEmail = uniqueEmail("giveaway-first");
  await signUpAndSignIn(giver.request, uniqueEmail("giveaway-giver"), "Gro Giver");
  await signUpAndSignIn(first.page.request, firstEmail, "Frida Først");
  await signUpAndSignIn(second.page.request, uniqueEmail("giveaway-second"), "Sander Sist");
  try {
    const { id } = await publishListing(giver.request, { title, is_free: true, price: "" });

    // The two takers join, in this order; each sees their own place.
    // On the page, not in the toast that says the same for a few seconds.
    await wantIt(first.page, id, "Til barnehagen vår, kan hente i kveld");
    await expect(first.page.getByRole("main").getByText("Du er nr. 1 i køen")).toBeVisible();
    await wantIt(second.page, id, "Sønnen min elsker brannbiler");
    await expect(second.page.getByRole("main").getByText("Du er nr. 2 i køen")).toBeVisible();
    await expectAccessible(second.page);

    // The giver sees the queue in order with the messages and reserves it for the second.
    await giver.goto(`/listing/${id}`);
    const panel = giver.getByRole("region", { name: "Gi bort-kø (2)" });
    const rows = panel.getByRole("list", { name: "Køen" }).getByRole("listitem");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText("1. Frida Først");
    await expect(rows.nth(0)).toContainText("Til barnehagen vår, kan hente i kveld");
    await expect(rows.nth(1)).toContainText("2. Sander Sist");
    // At 390 px each time stays whole ("Akkurat nå" never breaks beside the name), and "Første i
    // køen: …" is a line of text, not a button (each row's "Reserver" is the action).
    await panel.scrollIntoViewIfNeeded();
    await screenshotToLookAt(giver, "e2e-giveaway-queue");
    for (const row of [rows.nth(0), rows.nth(1)]) {
      const time = row.locator("time");
      await expect(time).toHaveText("Akkurat nå");
      expect(await time.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe("nowrap");
      expect(await time.evaluate((el) => el.getClientRects().length), "one line box").toBe(1);
    }
    const firstInLine = panel.getByText("Første i køen: Frida Først");
    await expect(firstInLine).toBeVisible();
    await expect(panel.getByRole("button", { name: /^Første i køen/ })).toHaveCount(0);
    expect(await firstInLine.evaluate((el) => el.closest("button, a, [role=button]"))).toBeNull();
    await rows.nth(1).getByRole("button", { name: "Reserver for Sander Sist" }).click();
    await expect(giver.getByRole("region", { name: "Gi bort-kø (1)" }).getByText("Reservert for Sander Sist")).toBeVisible();
    await expect(giver.getByText("Reservert", { exact: true })).toBeVisible();

    // The second sees the reservation and agrees the pickup in the chat it opened.
    await second.page.reload();
    await expect(second.page.getByText("Reservert for deg. Avtal hentingen i samtalen.")).toBeVisible();
    await second.page.getByRole("link", { name: "Åpne samtalen" }).click();
    await expect(second.page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
    await expect(second.page.getByRole("log").getByText(`«${title}» er reservert. Avtal hentingen her i samtalen.`)).toBeVisible();
    await second.page.getByRole("textbox", { name: "Melding" }).fill("Kan jeg hente i morgen kl. 17?");
    await second.page.getByRole("button", { name: "Send" }).click();
    await expect(second.page.getByRole("log").getByText("Kan jeg hente i morgen kl. 17?")).toBeVisible();
    // The first is still waiting, now first in line.
    await first.page.reload();
    await expect(first.page.getByText("Du er nr. 1 i køen")).toBeVisible();

    // The giver marks it given away (asked once more).
    const reserved = giver.getByRole("region", { name: "Gi bort-kø (1)" });
    await reserved.getByRole("button", { name: "Marker som gitt bort" }).click();
    await reserved.getByRole("group", { name: "Bekreft" }).getByRole("button", { name: "Ja, gitt bort" }).click();
    await expect(giver.getByText("Gitt bort til Sander Sist")).toBeVisible();
    await expectAccessible(giver);

    // The first is told by e-mail (local outbox) …
    await expect
      .poll(async () => (await outboxTo(first.page.request, firstEmail)).map((m) => m.subject))
      .toContain(`«${title}» er gitt bort`);
    // … and in the app: a notice on the account menu and in "Mine køplasser".
    await first.page.goto("/");
    const account = first.page.getByRole("button", { name: "Min konto, 1 nytt køvarsel" });
    await expect(account).toBeVisible({ timeout: 10_000 });
    await account.click();
    await first.page.getByRole("menuitem", { name: "Mine køplasser, 1 nye" }).click();
    await expect(first.page.getByRole("heading", { level: 1, name: "Mine køplasser" })).toBeVisible();
    const place = first.page.getByRole("listitem").filter({ hasText: title });
    await expect(place).toContainText("Leken er gitt bort til en annen.");
    await expect(place).toContainText("Ny");
    await expectAccessible(first.page);
    await expect(first.page.getByRole("button", { name: "Min konto", exact: true })).toBeVisible({ timeout: 10_000 });

    // The second finds the toy given to them.
    await second.page.goto("/mine-koplasser");
    await expect(second.page.getByRole("listitem").filter({ hasText: title })).toContainText("Du har fått leken. Kos deg!");
    expect([...first.policyReports, ...second.policyReports]).toEqual([]);
  } finally {
    await deleteAccount(giver.request);
    await deleteAccount(first.page.request);
    await deleteAccount(second.page.request);
    await first.context.close();
    await second.context.close();
  }
});
