// The first screen's data inside the page (docs/decisions/020-shell-preload.md): the shells of /,
// /search and /listing/{id} carry the answers to the API requests those pages make first, escaped
// for <script>, plus a preload of the first photo; other pages carry the site configuration only.
import { describe, expect, it } from "vitest";
import { createListing, createUser } from "../../factories";
import { Client } from "../support/http";

const HOSTILE_TITLE = `Tog </script><script>alert(1)</script> & <!-- "sitat"`;

function preloadedApi(html: string): Record<string, unknown> {
  const match = html.match(/<script id="preloaded-api" type="application\/json">([\s\S]*?)<\/script>/);
  if (!match) throw new Error("no preloaded-api block");
  return JSON.parse(match[1]) as Record<string, unknown>;
}

/** The page's own chunks the Worker names for the app loader (`<script id="page-modules">`). */
function pageModules(html: string): string[] {
  const match = html.match(/<script id="page-modules" type="application\/json">([\s\S]*?)<\/script>/);
  if (!match) throw new Error("no page-modules block");
  return JSON.parse(match[1]) as string[];
}

async function page(path: string): Promise<{ status: number; html: string }> {
  const res = await new Client().get(path, { headers: { Accept: "text/html" } });
  return { status: res.status, html: await res.text() };
}

async function api(path: string): Promise<unknown> {
  return (await new Client().get(path)).json();
}

describe("preloaded first screens", () => {
  it("/ carries exactly what /api/home and /api/config answer, and preloads the newest listing's photo", async () => {
    const seller = await createUser();
    const listing = await createListing({ userId: seller.id, title: HOSTILE_TITLE, images: [`${seller.id}/første bilde.jpg`] });
    const { status, html } = await page("/");
    expect(status).toBe(200);

    const data = preloadedApi(html);
    expect(data["/api/home"]).toEqual(await api("/api/home"));
    expect(data["/api/config"]).toEqual(await api("/api/config"));
    expect((data["/api/home"] as { newest: { id: string }[] }).newest[0].id).toBe(listing.id);
    // The card's copies and sizes, exactly as the card's <img> has them (decision 123), and no href.
    const photo = `/images/${seller.id}/f%C3%B8rste%20bilde.jpg`;
    expect(html).toContain(
      `<link rel="preload" as="image" imagesrcset="${photo}/360.webp 360w, ${photo}/800.webp 800w" ` +
        `imagesizes="(max-width: 479px) 120px, (min-width: 1024px) 300px, (min-width: 768px) 33vw, 50vw" fetchpriority="high">`,
    );

    // User text cannot end the block: the only </script> is the block's own.
    expect(html).not.toContain("<script>alert");
    expect(html.match(/<script/g)?.length).toBe(html.match(/<\/script>/g)?.length);
  });

  it("/search carries the first result page under the API query the SPA derives from the address", async () => {
    const seller = await createUser();
    await createListing({ userId: seller.id, title: "Lego brannbil", category: "lego", images: [`${seller.id}/bil.jpg`] });
    await createListing({ userId: seller.id, title: "Dukkevogn", category: "dukker" });

    // Old category keys, an out-of-range minimum and an unknown parameter: the canonical query drops or maps them.
    const { html } = await page("/search?categories=cars,lego&min=0&q=lego&x=1");
    const data = preloadedApi(html);
    const key = "/api/search?q=lego&categories=lego,biler&limit=50&offset=0";
    expect(Object.keys(data).sort()).toEqual(["/api/config", key]);
    expect(data[key]).toEqual(await api(key));
    expect((data[key] as { rows: { title: string }[] }).rows.map((r) => r.title)).toEqual(["Lego brannbil"]);
    expect(html).toContain(`<link rel="preload" as="image" imagesrcset="/images/${seller.id}/bil.jpg/360.webp 360w, `);

    const all = preloadedApi((await page("/search")).html);
    expect(all["/api/search?limit=50&offset=0"]).toEqual(await api("/api/search?limit=50&offset=0"));
  });

  it("/listing/{id} carries a public listing, but not a hidden one", async () => {
    const seller = await createUser();
    const shown = await createListing({ userId: seller.id, images: [`${seller.id}/tog.jpg`] });
    const hidden = await createListing({ userId: seller.id, isHidden: true });

    const html = (await page(`/listing/${shown.id}`)).html;
    const data = preloadedApi(html);
    expect(data[`/api/listings/${shown.id}`]).toEqual(await api(`/api/listings/${shown.id}`));
    // The listing page's photo at the screen's widths, as its carousel shows it.
    const photo = `/images/${shown.images[0]}`;
    expect(html).toContain(
      `<link rel="preload" as="image" imagesrcset="${photo}/360.webp 360w, ${photo}/800.webp 800w, ${photo}/1200.webp 1200w" ` +
        `imagesizes="(min-width: 1024px) 560px, (min-width: 768px) 54vw, 100vw" fetchpriority="high">`,
    );

    const none = preloadedApi((await page(`/listing/${hidden.id}`)).html);
    expect(Object.keys(none)).toEqual(["/api/config"]);
  });

  it("names the page's own JavaScript from the build's route-chunks.json for the app loader, and only our own asset paths", async () => {
    const home = (await page("/")).html;
    expect(pageModules(home)).toEqual(expect.arrayContaining(["/assets/HomePage-test.js", "/assets/ListingCard-test.js"]));
    // Named for the loader, not fetched by the parser: the first paint does not wait for them (decision 112).
    expect(home).not.toContain('rel="modulepreload"');

    const auth = (await page("/auth")).html;
    expect(pageModules(auth)).toEqual(["/assets/AuthPage-test.js"]);
    expect(auth).not.toContain("alert(1)");
    expect(auth).not.toContain("elsewhere.example");

    // A page behind sign-in too: it is opened from mails, mostly by someone signed in.
    expect(pageModules((await page("/chat/some-conversation")).html)).toEqual(["/assets/ChatPage-test.js"]);

    // A page without its own entry (and unknown pages) name nothing.
    expect((await page("/profile")).html).not.toContain('id="page-modules"');
  });

  it("other pages carry the configuration only, and unknown paths nothing", async () => {
    const auth = await page("/auth");
    expect(auth.status).toBe(200);
    expect(Object.keys(preloadedApi(auth.html))).toEqual(["/api/config"]);
    expect(auth.html).not.toContain('rel="preload" as="image"');

    const missing = await page("/finnes-ikke");
    expect(missing.status).toBe(404);
    expect(missing.html).not.toContain("preloaded-api");
  });

  it("a malformed escape in /listing/{id} is a page without preloaded data, not a server error", async () => {
    const { status, html } = await page("/listing/%E0%A4%A");
    expect(status).toBe(200);
    expect(Object.keys(preloadedApi(html))).toEqual(["/api/config"]);
  });
});
