// Accessibility over the whole route table: every page of domain/routes.ts PAGE_ROUTES is
// visited signed out and signed in (a demo user; /moderation also as the demo moderator and admin),
// and the app's dialogs and menus are opened. The fixture runs axe (WCAG 2.x A/AA) on every page a
// test visits and at the end of each test, and fails on any serious or critical violation; the
// dialogs are scanned explicitly while they are open (`scanNow`). A route added to the table without
// a path below fails the first test. One test per signed-in state: each signs in once (API) and
// walks its routes in one browser context (docs/decisions/065-accessibility-checks.md).
import type { APIRequestContext, Page } from "@playwright/test";
import { PAGE_ROUTES, PAGE_ROUTE_IDS, routeRegExp, type PageRouteId } from "../../domain/routes";
import { expect, test } from "./fixtures";
import { deleteAccount, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { DEMO_LISTINGS, DEMO_PASSWORD, demoListing } from "./support/demo";
import { createListing } from "./support/listings";
import { expectAccessible } from "./support/second-browser";

/** Ola: sells the Duplo boat and has Kari's pending trade offer for it in their conversation. */
const USER = "ola@lekebytte.test";
/** Kari: sent that offer (the sender's side of the card). */
const OFFER_SENDER = "kari@lekebytte.test";
const MODERATOR = "moderator@lekebytte.test";
const ADMIN = "admin@lekebytte.test";

interface DemoData {
  /** A listing of someone else's, open for trades. */
  otherTradeListing: { id: string; seo_slug: string; user_id: string };
  /** One of the signed-in user's own listings. */
  ownListing: { id: string; seo_slug: string };
  /** The user's conversation with the pending trade offer. */
  tradeConversationId: string;
}

/** A concrete path for every route of the table (the same path is visited in each state). */
const ROUTE_PATHS: Record<PageRouteId, (d: DemoData) => string> = {
  home: () => "/",
  auth: () => "/auth",
  authCallback: () => "/auth/callback?error=access_denied&error_description=Lenken%20er%20utl%C3%B8pt",
  vippsCallback: () => "/auth/vipps?error=access_denied&state=avbrutt-i-vipps",
  forgotPassword: () => "/auth/glemt-passord",
  resetPassword: () => "/auth/nytt-passord?token=ugyldig",
  confirmEmail: () => "/auth/bekreft-epost?token=ugyldig",
  stopEmailChange: () => "/auth/stopp-epostendring?token=ugyldig",
  search: () => "/search?q=lego",
  listingBySlug: (d) => `/annonse/${d.otherTradeListing.seo_slug}`,
  listingById: (d) => `/listing/${d.ownListing.id}`,
  publicProfile: (d) => `/bruker/${d.otherTradeListing.user_id}`,
  testNotifications: () => "/test-notifications",
  paymentSuccess: () => "/payment-success?session_id=cs_test_unknown",
  paymentDetails: () => "/betaling-fullfort?session_id=cs_test_unknown",
  about: () => "/om-oss",
  contact: () => "/kontakt",
  privacy: () => "/personvern",
  savedSearchUnsubscribe: () => "/lagrede-sok/avmeld?token=ugyldig",
  profile: () => "/profile",
  profileNorwegian: () => "/min-profil",
  messages: () => "/messages",
  chat: (d) => `/chat/${d.tradeConversationId}`,
  editListingIndex: () => "/edit-listing",
  editListing: (d) => `/edit-listing/${d.ownListing.id}`,
  tradeOffer: (d) => `/trade-offer/${d.otherTradeListing.id}`,
  tradeHistory: () => "/trade-history",
  createListing: () => "/create-listing",
  myListings: () => "/my-listings",
  favourites: () => "/favoritter",
  savedSearches: () => "/lagrede-sok",
  giveawayPlaces: () => "/mine-koplasser",
  moderation: () => "/moderation",
  adminDrift: () => "/admin/drift",
};

async function signIn(request: APIRequestContext, email: string): Promise<{ id: string }> {
  const res = await request.post("/api/auth/signin", { data: { email, password: DEMO_PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { user: { id: string } }).user;
}

/** The demo data the paths need, read through the API with the signed-in user's session. */
async function demoData(request: APIRequestContext, me: { id: string }): Promise<DemoData> {
  const otherTradeListing = await demoListing(request, DEMO_LISTINGS.emilsTrade);
  const own = (await (await request.get("/api/me/listings")).json()) as { id: string; seo_slug: string; status: string }[];
  const ownListing = own.find((listing) => listing.status === "active")!;
  const conversations = (await (await request.get("/api/conversations")).json()) as { id: string; listing: { title: string } }[];
  const tradeConversation = conversations.find((c) => c.listing.title === "Lego Duplo båt")!;
  expect(
    otherTradeListing.user_id !== me.id && ownListing && tradeConversation,
    "the demo data has a trade listing, an own listing and the trade conversation",
  ).toBeTruthy();
  return { otherTradeListing, ownListing, tradeConversationId: tradeConversation.id };
}

/** Visit a path; the fixture scans it once it has settled. A page shows its h1 or the sign-in form. */
async function visit(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator("main h1, main form").first()).toBeVisible();
}

/** Scan the page as it is now (a dialog or menu open) with the fixture's rules. */
async function scanNow(page: Page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await expectAccessible(page);
}

test("every route of the table has a path here, and each path is the route's", () => {
  expect(Object.keys(ROUTE_PATHS).sort()).toEqual([...PAGE_ROUTE_IDS].sort());
  const sample: DemoData = {
    otherTradeListing: { id: "x-id", seo_slug: "x-slug", user_id: "u-id" },
    ownListing: { id: "o-id", seo_slug: "o-slug" },
    tradeConversationId: "c-id",
  };
  for (const id of PAGE_ROUTE_IDS) {
    const path = new URL(ROUTE_PATHS[id](sample), "http://x").pathname;
    expect(routeRegExp(PAGE_ROUTES[id].path).test(path), `${id}: ${path}`).toBe(true);
  }
});

test("signed out: every route of the table, the sign-in and sign-up forms and the filter dialog", async ({ page, playwright, baseURL }) => {
  // Long walks, and the machine's two cores are shared with the other spec and the app.
  test.setTimeout(180_000);
  // The paths with ids come from a demo user's data, read in a request context of its own.
  const api = await playwright.request.newContext({ baseURL });
  const data = await demoData(api, await signIn(api, USER));
  await api.dispose();
  for (const id of PAGE_ROUTE_IDS) await visit(page, ROUTE_PATHS[id](data));

  await visit(page, "/auth");
  // Both forms with their validation messages showing.
  await page.getByRole("button", { name: "Logg inn", exact: true }).click();
  await expect(page.locator("[aria-invalid=true]").first()).toBeVisible();
  await page.getByRole("tab", { name: "Registrer" }).click();
  await page.getByRole("button", { name: "Registrer", exact: true }).click();
  await expect(page.getByRole("tabpanel").locator("[aria-invalid=true]").first()).toBeVisible();
  await scanNow(page);

  await visit(page, "/search");
  await page.getByRole("button", { name: /^Filter/ }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await scanNow(page);
});

/** What the signed-in user opens on a route before moving on: its dialogs and menus, each scanned open. */
const WHILE_THERE: Partial<Record<PageRouteId, (page: Page) => Promise<void>>> = {
  // The header's account menu.
  home: async (page) => {
    await page.getByRole("button", { name: "Min konto" }).click();
    await expect(page.getByRole("menu")).toBeVisible();
    await scanNow(page);
    await page.keyboard.press("Escape");
  },
  // The filter dialog, then the save-search dialog.
  search: async (page) => {
    await page.getByRole("button", { name: /^Filter/ }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await scanNow(page);
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: /Lagre søk/ }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await scanNow(page);
    await page.keyboard.press("Escape");
  },
  // Someone else's listing: the report dialog, with its validation message.
  listingBySlug: async (page) => {
    await page.getByRole("button", { name: "Rapporter annonse" }).click();
    const report = page.getByRole("dialog", { name: "Rapporter annonse" });
    await report.getByRole("button", { name: "Send rapport" }).click();
    await expect(report.getByText("Velg en årsak", { exact: true }).last()).toBeVisible();
    await scanNow(page);
    await page.keyboard.press("Escape");
  },
  // The own listing: the status menu and the delete confirmation.
  listingById: async (page) => {
    const tools = page.getByRole("group", { name: "Din annonse" });
    await tools.getByRole("button", { name: "Status" }).click();
    await expect(page.getByRole("menu")).toBeVisible();
    await scanNow(page);
    await page.keyboard.press("Escape");
    await tools.getByRole("button", { name: "Slett" }).click();
    await expect(page.getByRole("alertdialog").or(page.getByRole("dialog"))).toBeVisible();
    await scanNow(page);
    await page.keyboard.press("Escape");
  },
  // Proposing a trade: a listing chosen, the form ready to send.
  tradeOffer: async (page) => {
    await page.getByRole("group", { name: "Velg hva du vil tilby i bytte" }).getByRole("radio").first().check();
    await scanNow(page);
  },
  // The trade offer to answer (the visit scanned the page with the card).
  chat: async (page) => {
    const card = page.getByRole("region", { name: "Bytteforslag" }).getByRole("article");
    await expect(card.getByRole("button", { name: "Aksepter" })).toBeVisible();
    await expect(card.getByRole("button", { name: "Avslå" })).toBeVisible();
    await scanNow(page);
  },
  // The password dialog of "Last ned mine data".
  profile: async (page) => {
    await page.getByRole("button", { name: "Last ned mine data" }).click();
    await expect(page.getByRole("alertdialog")).toBeVisible();
    await scanNow(page);
    await page.keyboard.press("Escape");
  },
};

test("signed in: every route of the table, with the dialogs and menus of search, listings, chat and profile open", async ({ page }) => {
  test.setTimeout(240_000);
  const data = await demoData(page.request, await signIn(page.request, USER));
  for (const id of PAGE_ROUTE_IDS) {
    await visit(page, ROUTE_PATHS[id](data));
    await WHILE_THERE[id]?.(page);
  }
});

test("signed in: the sender's side of a pending trade, with the withdraw confirmation", async ({ page }) => {
  await signIn(page.request, OFFER_SENDER);
  const conversations = (await (await page.request.get("/api/conversations")).json()) as { id: string; listing: { title: string } }[];
  await visit(page, `/chat/${conversations.find((c) => c.listing.title === "Lego Duplo båt")!.id}`);
  const card = page.getByRole("region", { name: "Bytteforslag" }).getByRole("article");
  await card.getByRole("button", { name: "Trekk tilbake" }).click();
  await expect(card.getByText("Trekke tilbake forslaget?")).toBeVisible();
  await scanNow(page);
});

test("the moderator's and the admin's dashboard, with a report opened and the moderate dialog", async ({ page, playwright, baseURL }) => {
  test.setTimeout(60_000);
  // A report of this test's own: opening a report marks it reviewed ("Vurdert") for every moderator,
  // and the dashboard also lists the reports other specs file meanwhile.
  const seller = await playwright.request.newContext({ baseURL });
  const reporter = await playwright.request.newContext({ baseURL });
  await signUpAndSignIn(seller, uniqueEmail("a11y-seller"), "Siri Selger");
  await signUpAndSignIn(reporter, uniqueEmail("a11y-reporter"), "Rune Rapportør");
  try {
    const title = `E2E Fjernstyrt bil ${Date.now().toString(36)}`;
    const listingId = await createListing(seller, title);
    const report = await reporter.post("/api/reports", {
      data: {
        target_type: "listing",
        target_id: listingId,
        reason: "Falsk annonse",
        description: "Bildet ser ikke ut som en bil med firehjulstrekk.",
      },
    });
    expect(report.status(), await report.text()).toBe(201);

    await signIn(page.request, MODERATOR);
    await visit(page, "/moderation");
    const pending = page.getByRole("article").filter({ hasText: title });
    await pending.getByRole("button").first().click();
    await pending.getByRole("button", { name: "Behandle" }).click();
    const dialog = page.getByRole("dialog", { name: "Moderer rapport" });
    await dialog.getByRole("button", { name: "Utfør handling" }).click();
    await expect(dialog.getByText("Velg en handling")).toBeVisible();
    await scanNow(page);
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Løst" }).click();
    await expect(page.getByRole("article").first()).toBeVisible();
    await scanNow(page);

    await page.request.post("/api/auth/signout");
    await signIn(page.request, ADMIN);
    await visit(page, "/moderation");
    await expect(page.getByRole("heading", { level: 1, name: "Moderering" })).toBeVisible();
    await scanNow(page);
  } finally {
    await deleteAccount(seller);
    await deleteAccount(reporter);
    await seller.dispose();
    await reporter.dispose();
  }
});
