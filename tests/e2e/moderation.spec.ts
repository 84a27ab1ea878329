// Reports and moderation end to end: a user reports a listing from its page,
// the demo moderator hides it from the dashboard, after which a visitor finds it neither on the home
// page, in search, nor at its slug URL; the moderator shows it again and it is back everywhere.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { deleteAccount, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { publishListing } from "./support/listings";
import { screenshotToLookAt } from "./support/screenshots";

const MODERATOR = { email: "moderator@lekebytte.test", password: "lekebytte123" };

interface Finds {
  home: boolean;
  search: boolean;
  slug: number;
}

/**
 * What a visitor (no session) finds of the listing: on home, in search, at its slug URL, checked
 * against what they should find. Each page is loaded once and then given time to render what it
 * answered (a poll, not a reload): an answer that lacks the listing never grows it.
 */
async function visitorFinds(visitor: Page, word: string, title: string, slug: string, expected: Finds): Promise<void> {
  await visitor.goto("/");
  const newest = visitor.getByRole("region", { name: "Nyeste annonser" });
  await expect(newest.getByRole("heading", { level: 3 }).first()).toBeVisible();
  const shows = async () => (await visitor.getByRole("main").getByText(title).count()) > 0;
  await expect.poll(shows, { message: "home", timeout: 10_000 }).toBe(expected.home);
  await visitor.goto(`/search?q=${encodeURIComponent(word)}`);
  await expect(visitor.getByText(/annonser? funnet|^\d+ annonser?$|Ingen annonser funnet/).first()).toBeVisible();
  await expect.poll(shows, { message: "search", timeout: 10_000 }).toBe(expected.search);
  const response = await visitor.goto(`/annonse/${slug}`);
  expect(response?.status(), "slug page").toBe(expected.slug);
  if (expected.slug === 404) await expect(visitor.getByRole("heading", { name: "404 - Siden finnes ikke" })).toBeVisible();
  else await expect(visitor.getByRole("heading", { level: 1, name: title })).toBeVisible();
}

test("a reported listing hidden by the moderator is gone for visitors until it is shown again", async ({ page: reporter, browser }) => {
  test.setTimeout(150_000);
  const word = `Moderasjonsbil${Date.now().toString(36)}`;
  const title = `${word} med lys og lyd`;
  const sellerContext = await browser.newContext();
  const moderatorContext = await browser.newContext();
  const visitorContext = await browser.newContext();
  for (const context of [sellerContext, moderatorContext, visitorContext])
    await context.addInitScript(() => window.localStorage.setItem("lb_consent", "necessary"));
  const seller = await sellerContext.newPage();
  const moderator = await moderatorContext.newPage();
  const visitor = await visitorContext.newPage();
  await signUpAndSignIn(seller.request, uniqueEmail("mod-seller"), "Siri Selger");
  await signUpAndSignIn(reporter.request, uniqueEmail("mod-reporter"), "Rune Rapportør");
  try {
    // Free and open for trades, so it is on the home page in all three sections while it is among
    // the newest of any: specs running beside this one publish listings of their own meanwhile.
    const { id } = await publishListing(seller.request, { title, is_free: true, price: "", is_trade_offer: true });
    const listing = (await (await seller.request.get(`/api/listings/${id}`)).json()) as { seo_slug: string };
    await visitorFinds(visitor, word, title, listing.seo_slug, { home: true, search: true, slug: 200 });

    // The user reports it from the listing page's header.
    await reporter.goto(`/annonse/${listing.seo_slug}`);
    await reporter.getByRole("button", { name: "Rapporter annonse" }).click();
    const dialog = reporter.getByRole("dialog", { name: "Rapporter annonse" });
    await dialog.getByRole("button", { name: "Send rapport" }).click();
    await expect(dialog.getByText("Velg en årsak", { exact: true }).last()).toBeVisible();
    await dialog.getByLabel("Årsak").selectOption("Falsk annonse");
    await dialog.getByLabel("Tilleggsinformasjon (valgfritt)").fill("Bildene er hentet fra en nettbutikk.");
    await expect(dialog.getByLabel("Prioritet")).toHaveValue("normal");
    await dialog.getByLabel("Prioritet").selectOption("high");
    await dialog.getByRole("button", { name: "Send rapport" }).click();
    await expect(reporter.getByText("Rapport sendt")).toBeVisible();
    await expect(dialog).toBeHidden();

    // The demo moderator hides it from the dashboard.
    const signin = await moderator.request.post("/api/auth/signin", { data: MODERATOR });
    expect(signin.status(), await signin.text()).toBe(200);
    await moderator.goto("/moderation");
    await expect(moderator.getByRole("heading", { level: 1, name: "Moderering" })).toBeVisible();
    const card = moderator.getByRole("article").filter({ hasText: title });
    await expect(card.getByText("Høy", { exact: true })).toBeVisible();
    await expect(card.getByText("Rune Rapportør")).toBeVisible();
    await card.getByRole("button", { name: new RegExp(title) }).click();
    await expect(card.getByText("Bildene er hentet fra en nettbutikk.")).toBeVisible();
    await card.getByRole("button", { name: "Behandle" }).click();
    const moderate = moderator.getByRole("dialog", { name: "Moderer rapport" });
    await moderate.getByRole("button", { name: "Utfør handling" }).click();
    await expect(moderate.getByText("Velg en handling")).toBeVisible();
    await moderate.getByRole("radio", { name: "Skjul annonsen" }).check();
    await moderate.getByLabel("Notater (valgfritt)").fill("Kopierte bilder");
    await moderate.getByRole("button", { name: "Utfør handling" }).click();
    await expect(moderator.getByText("Handling utført")).toBeVisible();
    await expect(moderate).toBeHidden();
    await expect(moderator.getByRole("article").filter({ hasText: title })).toHaveCount(0);

    // A visitor finds it nowhere; the slug URL is a 404.
    await visitorFinds(visitor, word, title, listing.seo_slug, { home: false, search: false, slug: 404 });

    // The owner still sees it, marked hidden with the reason.
    await seller.goto(`/annonse/${listing.seo_slug}`);
    await expect(seller.getByText("Skjult av moderator.")).toBeVisible();
    await expect(seller.getByText("Årsak: Falsk annonse: Kopierte bilder")).toBeVisible();

    // The moderator shows it again from the resolved reports, once the hide's toast is gone (the
    // unhide's own "Handling utført" is what proves it answered).
    await expect(moderator.getByText("Handling utført")).toHaveCount(0, { timeout: 15_000 });
    await moderator.getByRole("button", { name: "Løst" }).click();
    const resolved = moderator.getByRole("article").filter({ hasText: title });
    await resolved.getByRole("button", { name: new RegExp(title) }).click();
    await resolved.getByRole("button", { name: "Vis annonsen igjen" }).click();
    await expect(moderator.getByText("Handling utført")).toBeVisible();

    await visitorFinds(visitor, word, title, listing.seo_slug, { home: true, search: true, slug: 200 });
  } finally {
    await deleteAccount(seller.request);
    await deleteAccount(reporter.request);
    await Promise.all([sellerContext.close(), moderatorContext.close(), visitorContext.close()]);
  }
});

test("a signed-in user without the moderator role is told they have no access", async ({ page }) => {
  await signUpAndSignIn(page.request, uniqueEmail("mod-nobody"), "Nina Nysgjerrig");
  try {
    const api = await page.request.get("/api/moderation/reports");
    expect(api.status()).toBe(403);
    await page.goto("/moderation");
    await expect(page.getByRole("heading", { level: 1, name: "Ingen tilgang" })).toBeVisible();
    await expect(page.getByText("Du har ikke tilgang til moderering.", { exact: false })).toBeVisible();
  } finally {
    await deleteAccount(page.request);
  }
});

test("a moderator is not offered a decision on a report about an admin, and is told why (decision 085)", async ({
  page: reporter,
  browser,
}) => {
  const moderatorContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await moderatorContext.addInitScript(() => window.localStorage.setItem("lb_consent", "necessary"));
  const moderator = await moderatorContext.newPage();
  await signUpAndSignIn(reporter.request, uniqueEmail("mod-staff-reporter"), "Randi Rapportør");
  try {
    const signin = await moderator.request.post("/api/auth/signin", { data: MODERATOR });
    expect(signin.status(), await signin.text()).toBe(200);
    // The demo admin's id, from a sign-in of its own (another browser context).
    const adminContext = await browser.newContext();
    const admin = await adminContext.request.post("/api/auth/signin", {
      data: { email: "admin@lekebytte.test", password: MODERATOR.password },
    });
    const adminId = ((await admin.json()) as { user: { id: string } }).user.id;
    await adminContext.close();
    const report = await reporter.request.post("/api/reports", {
      data: { target_type: "user", target_id: adminId, reason: "Trakassering", description: "Truende meldinger" },
    });
    expect(report.status(), await report.text()).toBe(201);

    await moderator.goto("/moderation");
    const card = moderator.getByRole("article").filter({ hasText: "Anders Dahl" }).first();
    await card.getByRole("button", { name: /Anders Dahl/ }).click();
    await expect(card.getByText("Bare en administrator kan moderere moderatorer og administratorer.")).toBeVisible();
    await expect(card.getByRole("button", { name: "Behandle" })).toHaveCount(0);
    await screenshotToLookAt(moderator, "h20-moderation-staff-target", { fullPage: true });
    // The server refuses the same (the dashboard only mirrors it).
    const { items } = (await (await moderator.request.get("/api/moderation/reports?status=pending")).json()) as {
      items: { report_id: string; target_id: string }[];
    };
    const id = items.find((i) => i.target_id === adminId)!.report_id;
    const suspend = await moderator.request.post(`/api/moderation/reports/${id}/actions`, {
      data: { action: "delete", notes: null, suspension_days: 365 },
    });
    expect(suspend.status()).toBe(403);
  } finally {
    await deleteAccount(reporter.request);
    await moderatorContext.close();
  }
});
