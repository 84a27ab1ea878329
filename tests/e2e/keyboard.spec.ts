// Keyboard only: sign in, the create-listing wizard through to a published
// listing, search filters, a chat message and accepting a trade offer, with Tab / Shift+Tab / Enter /
// Space / arrow keys and typing into the field that has focus. Locators only recognise where focus
// is; nothing is clicked or filled. The photo is chosen through the file chooser that Space opens
// on the focused file input (Playwright answers the native dialog with setFiles).
// Then: every main page, tabbed through from the top, shows a visible focus indicator at each stop.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { deleteAccount, E2E_PASSWORD, signUpAndSignIn, uniqueEmail } from "./support/accounts";
import { DEMO_LISTINGS, DEMO_PASSWORD, demoListing } from "./support/demo";
import { createListing, photo } from "./support/listings";
import { focusStop, stopsWithoutVisibleFocus, tabAndPress, tabTo } from "./support/keyboard";

/** Type into the focused field (after Tab put focus there). */
async function typeHere(page: Page, text: string) {
  await page.keyboard.type(text);
}

test("sign in, create a listing, filter a search, send a chat message and accept a trade with the keyboard only", async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(150_000);
  // Playwright intercepts the file chooser only once a listener exists, and turning that on is a
  // round trip to the browser: listen from the start, so the chooser Space opens later is never
  // shown natively (and missed) on a busy machine.
  page.on("filechooser", () => {});
  const suffix = Date.now().toString(36);
  const title = `Tastatur-traktor ${suffix}`;
  const offeredTitle = `E2E Byttebil ${suffix}`;
  const email = uniqueEmail("keyboard");
  // The other person (and the keyboard user's account) are set up through the API, in contexts of their own.
  const me = await playwright.request.newContext({ baseURL });
  const other = await playwright.request.newContext({ baseURL });
  await signUpAndSignIn(me, email, "Tine Tastatur");
  await me.post("/api/auth/signout");
  await signUpAndSignIn(other, uniqueEmail("keyboard-other"), "Bjørn Bytter");
  try {
    const offeredId = await createListing(other, offeredTitle);

    // Sign in: Tab to the fields, type, Enter submits.
    await page.goto("/auth");
    const form = page.getByRole("form", { name: "Logg inn" });
    await tabTo(page, form.getByLabel("E-post"));
    await typeHere(page, email);
    await page.keyboard.press("Tab");
    await expect(form.getByLabel("Passord")).toBeFocused();
    await typeHere(page, E2E_PASSWORD);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("button", { name: "Min konto" })).toBeVisible();
    // The form's button is gone with the old page: the new page's main area has focus.
    await expect(page.getByRole("main")).toBeFocused();

    // The wizard, from the header's "Legg ut annonse" (just before the main area).
    await tabAndPress(page, page.getByRole("banner").getByRole("link", { name: /Legg ut/ }), "Enter", { backwards: true });
    await expect(page.getByRole("heading", { level: 1, name: "Ny annonse" })).toBeVisible();
    // Step 1: Space on the focused file input opens the file chooser.
    const fileInput = page.locator('input[type="file"]');
    await tabTo(page, fileInput);
    const [chooser] = await Promise.all([page.waitForEvent("filechooser", { timeout: 15_000 }), page.keyboard.press("Space")]);
    await chooser.setFiles({ name: "traktor.jpg", mimeType: "image/jpeg", buffer: photo() });
    await expect(page.getByRole("img", { name: "Bilde 1: traktor.jpg" })).toBeVisible();
    await tabAndPress(page, page.getByRole("button", { name: "Neste" }));
    // Step 2: title and description.
    await expect(page.getByRole("heading", { name: "Tittel og beskrivelse" })).toBeFocused();
    await tabTo(page, page.getByLabel("Tittel"));
    await typeHere(page, title);
    await tabTo(page, page.getByLabel("Beskrivelse (valgfritt)"));
    await typeHere(page, "Grønn traktor med henger. Lite brukt.");
    await tabAndPress(page, page.getByRole("button", { name: "Neste" }));
    // Step 3: radio groups, chosen with the arrow keys.
    await expect(page.getByRole("heading", { name: "Kategori, alder og tilstand" })).toBeFocused();
    await tabTo(page, page.getByRole("group", { name: "Kategori" }).getByRole("radio").first());
    await page.keyboard.press("Space");
    await page.keyboard.press("ArrowRight");
    const category = page.getByRole("group", { name: "Kategori" }).getByRole("radio").nth(1);
    await expect(category).toBeChecked();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("group", { name: "Aldersgruppe" }).getByRole("radio").first()).toBeFocused();
    await page.keyboard.press("Space");
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("group", { name: "Aldersgruppe" }).getByRole("radio").nth(1)).toBeChecked();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Space");
    await expect(page.getByRole("group", { name: "Tilstand" }).getByRole("radio").first()).toBeChecked();
    await tabAndPress(page, page.getByRole("button", { name: "Neste" }));
    // Step 4: open for trades (Space on the checkbox), price, postal code, publish.
    await expect(page.getByRole("heading", { name: "Pris, sted og forhåndsvisning" })).toBeFocused();
    await tabAndPress(page, page.getByRole("checkbox", { name: "Åpen for bytte" }), "Space");
    await expect(page.getByRole("checkbox", { name: "Åpen for bytte" })).toBeChecked();
    await tabTo(page, page.getByLabel("Pris (kr)"));
    await typeHere(page, "250");
    await tabTo(page, page.getByLabel("Postnummer"));
    await page.keyboard.press("ControlOrMeta+A");
    await typeHere(page, "0150");
    await tabAndPress(page, page.getByRole("button", { name: "Publiser annonse" }));
    // Published: the wizard goes to the home page, where the listing is the newest.
    await expect(page).toHaveURL(/\/$/, { timeout: 15_000 });
    await expect(page.getByRole("region", { name: "Nyeste annonser" }).getByText(title)).toBeVisible();

    // Search: open the filter dialog from the search page, tick two filters, apply.
    await page.goto("/search");
    await tabAndPress(page, page.getByRole("button", { name: /^Filter/ }));
    const dialog = page.getByRole("dialog", { name: "Filter" });
    await expect(dialog).toBeVisible();
    await tabAndPress(page, dialog.getByRole("checkbox", { name: "Åpen for bytte" }), "Space");
    await tabAndPress(page, dialog.getByRole("checkbox", { name: "Utmerket" }), "Space", { backwards: true });
    await tabAndPress(page, dialog.getByRole("button", { name: /^Vis / }));
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/trade=true/);
    const chips = page.getByRole("list", { name: "Aktive filtre" });
    await expect(chips).toContainText("Åpen for bytte");
    await expect(chips).toContainText("Utmerket");
    await expect(page.getByRole("main").getByText(title)).toBeVisible();

    // The other person proposes a trade for the new listing, which starts the conversation.
    const mine = (await (await page.request.get("/api/me/listings")).json()) as { id: string; title: string }[];
    const created = mine.find((listing) => listing.title === title)!;
    const offer = await other.post("/api/trade-offers", {
      data: { requested_listing_id: created.id, offered_listing_id: offeredId, message: "Bytte?" },
    });
    expect(offer.status(), await offer.text()).toBe(201);

    // Messages from the header, the conversation, a message typed and sent with Enter.
    await page.goto("/");
    await tabAndPress(page, page.getByRole("banner").getByRole("link", { name: /^Meldinger/ }));
    await expect(page.getByRole("heading", { level: 1, name: "Meldinger" })).toBeVisible();
    await tabAndPress(page, page.getByRole("link", { name: /Bjørn Bytter/ }));
    await expect(page).toHaveURL(/\/chat\//);
    await tabTo(page, page.getByRole("textbox", { name: "Melding" }));
    await typeHere(page, "Hei! Jeg ser på forslaget ditt.");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("log").getByText("Hei! Jeg ser på forslaget ditt.")).toBeVisible();

    // Accept the trade on its card, reached with Shift+Tab from the message field.
    const card = page.getByRole("region", { name: "Bytteforslag" }).getByRole("article");
    await tabAndPress(page, card.getByRole("button", { name: "Aksepter" }), "Enter", { backwards: true });
    await expect(page.getByText("Bytteforslag akseptert!")).toBeVisible();
    await expect(card).toContainText("Akseptert");
  } finally {
    await deleteAccount(page.request);
    await deleteAccount(other);
    await me.dispose();
    await other.dispose();
  }
});

/** Tab through each page from the top: every stop shows a focus indicator. */
async function expectVisibleFocus(page: Page, paths: string[]) {
  const missing: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    await expect(page.locator("main h1, main form").first()).toBeVisible();
    for (const stop of await stopsWithoutVisibleFocus(page)) missing.push(`${path}: ${stop}`);
  }
  expect(missing).toEqual([]);
}

test("signed out: a visible focus indicator at every Tab stop of the main pages", async ({ page }) => {
  test.setTimeout(90_000);
  const listing = await demoListing(page.request, DEMO_LISTINGS.olasTrade);
  await expectVisibleFocus(page, ["/", "/search?q=lego", `/annonse/${listing.seo_slug}`, "/auth", "/kontakt", "/om-oss"]);
});

test("signed in: a visible focus indicator at every Tab stop of the main pages", async ({ page }) => {
  test.setTimeout(120_000);
  const signIn = await page.request.post("/api/auth/signin", { data: { email: "ola@lekebytte.test", password: DEMO_PASSWORD } });
  expect(signIn.status()).toBe(200);
  // Someone else's listing open for trades (Ola's own cannot be asked for).
  const listing = await demoListing(page.request, DEMO_LISTINGS.emilsTrade);
  const conversations = (await (await page.request.get("/api/conversations")).json()) as { id: string }[];
  await expectVisibleFocus(page, [
    "/profile",
    "/messages",
    `/chat/${conversations[0].id}`,
    "/create-listing",
    "/lagrede-sok",
    "/favoritter",
    "/trade-history",
    `/trade-offer/${listing.id}`,
    "/search?q=lego",
  ]);

  // Inside the filter dialog (focus stays in it, so the walk ends when it comes round).
  await tabAndPress(page, page.getByRole("button", { name: /^Filter/ }));
  await expect(page.getByRole("dialog", { name: "Filter" })).toBeVisible();
  expect(await stopsWithoutVisibleFocus(page)).toEqual([]);
  await page.keyboard.press("Escape");

  // The account menu's items, moved through with the arrow keys.
  await tabAndPress(page, page.getByRole("button", { name: "Min konto" }));
  // The menu's code loads on first opening (decision 102): wait for the menu, with focus in it.
  await expect(page.getByRole("menuitem").first()).toBeFocused();
  const items = await page.getByRole("menuitem").count();
  expect(items).toBeGreaterThan(2);
  for (let i = 0; i < items; i++) {
    const stop = await focusStop(page);
    expect(stop, "a menu item has focus").not.toBeNull();
    expect(stop!.visible, `${stop!.element}: ${stop!.reason}`).toBe(true);
    await page.keyboard.press("ArrowDown");
  }
  await page.keyboard.press("Escape");
});
