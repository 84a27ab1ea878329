// Dates and times are shown in Europe/Oslo whatever the browser's time zone (docs/style.md "Texts and
// formats"). playwright.config.ts runs this spec in the default project (browser in Europe/Oslo) and
// again in "chromium-utc" (browser in UTC). The expected texts are
// computed here with the zone named explicitly, so they do not depend on this machine's zone either.
import { chatDayLabel } from "../../domain/chat-days";
import { expect, test } from "./fixtures";

const osloTime = new Intl.DateTimeFormat("nb-NO", { hour: "2-digit", minute: "2-digit", timeZone: "Europe/Oslo" });
const osloDay = new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", timeZone: "Europe/Oslo" });
const osloDate = new Intl.DateTimeFormat("nb-NO", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/Oslo" });

// Ingrid's demo chat with Lars about the horse stable (scripts/seed/data.ts), two days old.
const DEMO = { email: "ingrid@lekebytte.test", password: "lekebytte123" };

test("the inbox, the chat and the listing page show Oslo times and dates", async ({ page }, testInfo) => {
  await page.goto("/");
  const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  expect(zone).toBe(testInfo.project.use.timezoneId);

  const signin = await page.request.post("/api/auth/signin", { data: DEMO });
  expect(signin.status(), await signin.text()).toBe(200);
  const inbox = (await (await page.request.get("/api/conversations")).json()) as { id: string; listing: { id: string } }[];
  expect(inbox.length).toBeGreaterThan(0);

  // Inbox: today's messages by their time, older ones by "I går" or the date.
  await page.goto("/messages");
  const inboxTimes = page.getByRole("main").locator("time[datetime]");
  await expect(inboxTimes.first()).toBeVisible();
  for (const time of await inboxTimes.all()) {
    const at = new Date((await time.getAttribute("datetime"))!);
    const expected = osloDay.format(at) === osloDay.format(new Date()) ? osloTime.format(at) : chatDayLabel(at);
    await expect(time).toHaveText(expected);
  }

  // Chat: every message with its Oslo hour and minute (UTC differs by one or two hours all year).
  await page.goto(`/chat/${inbox[0].id}`);
  const chatTimes = page.getByRole("log").locator("time[datetime]");
  await expect(chatTimes.first()).toBeVisible();
  const all = await chatTimes.all();
  expect(all.length).toBeGreaterThan(1);
  for (const time of all) await expect(time).toHaveText(osloTime.format(new Date((await time.getAttribute("datetime"))!)));

  // Listing page: the seller's "Medlem siden" date.
  const listing = (await (await page.request.get(`/api/listings/${inbox[0].listing.id}`)).json()) as {
    seo_slug: string;
    seller: { created_at: string };
  };
  await page.goto(`/annonse/${listing.seo_slug}`);
  await expect(page.getByText(`Medlem siden ${osloDate.format(new Date(listing.seller.created_at))}`)).toBeVisible();
});
