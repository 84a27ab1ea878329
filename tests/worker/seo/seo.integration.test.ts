// Edge SEO and content endpoints (SEO issue): slug pages with injected, escaped meta tags and JSON-LD,
// 404s, robots.txt, the sitemap from the cron run, newsletter and contact rules.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../../worker";
import { generateSitemap } from "../../../worker/features/seo/sitemap";
import { createListing, createUser } from "../../factories";
import { Client, errorOf } from "../support/http";

const HOSTILE_TITLE = `Bil "Lyn" <script>alert(1)</script> & </script><b>fet`;

// biome-ignore lint/suspicious/noExplicitAny: the tests walk arbitrary JSON-LD; `any` keeps them readable
function jsonLdOf(html: string): Record<string, any> {
  const match = html.match(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/);
  if (!match) throw new Error("no JSON-LD");
  return JSON.parse(match[1]);
}

describe("slug pages", () => {
  it("injects escaped title, description, canonical, Open Graph, Twitter and JSON-LD", async () => {
    const seller = await createUser();
    const listing = await createListing({
      userId: seller.id,
      title: HOSTILE_TITLE,
      description: `Nesten ny. </script><script>alert("x")</script> ${"Lang tekst om bilen. ".repeat(20)}`,
      price: 1250,
      postalCode: "9008",
      images: [`${seller.id}/a.jpg`, `${seller.id}/b.jpg`],
    });
    const res = await new Client().get(`/annonse/${listing.seoSlug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/text\/html/);
    const html = await res.text();

    expect(html).toContain(
      `<title>Bil "Lyn" &lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;/script&gt;&lt;b&gt;fet - 1\u00a0250 kr | Tromsø | Lekebytte</title>`,
    );
    // The only </script> sequences are the real closing tags of our own scripts.
    expect(html.match(/<script/g)?.length).toBe(html.match(/<\/script>/g)?.length);
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<b>fet");

    const origin = "http://localhost";
    expect(html).toContain(`<link rel="canonical" href="${origin}/annonse/${listing.seoSlug}" />`);
    expect(html).toContain(`<meta property="og:image" content="${origin}/images/${seller.id}/a.jpg" />`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    const description = html.match(/<meta name="description" content="([^"]*)"/)?.[1] ?? "";
    expect(description.length).toBeGreaterThan(0);

    const ld = jsonLdOf(html);
    expect(ld).toMatchObject({
      "@type": "Product",
      name: HOSTILE_TITLE,
      offers: {
        "@type": "Offer",
        price: 1250,
        priceCurrency: "NOK",
        availability: "https://schema.org/InStock",
        itemCondition: "https://schema.org/UsedCondition",
        isFree: false,
      },
    });
    expect((ld.description as string).length).toBeLessThanOrEqual(120);

    const preloaded = html.match(/<script id="preloaded-listing" type="application\/json">([\s\S]*?)<\/script>/)?.[1];
    expect(JSON.parse(preloaded!).title).toBe(HOSTILE_TITLE);
  });

  it("uses Gratis and isFree for free listings", async () => {
    const listing = await createListing({ title: "Gratis dukkevogn", isFree: true, price: null, postalCode: "0150" });
    const html = await (await new Client().get(`/annonse/${listing.seoSlug}`)).text();
    expect(html).toContain("<title>Gratis dukkevogn - Gratis | Oslo | Lekebytte</title>");
    expect(jsonLdOf(html).offers).toMatchObject({ price: 0, isFree: true });
  });

  it("answers 404 for unknown, hidden and deleted listings (a sold one stays, read only: decision 117)", async () => {
    const hidden = await createListing({ isHidden: true });
    const deleted = await createListing({ status: "deleted" });
    for (const slug of ["finnes-ikke-abcdef", hidden.seoSlug, deleted.seoSlug]) {
      const res = await new Client().get(`/annonse/${slug}`);
      expect(res.status, slug).toBe(404);
      expect(await res.text()).not.toContain("application/ld+json");
    }
  });

  it("redirects an old slug with the same id prefix to the canonical one", async () => {
    const listing = await createListing({ title: "Ny tittel" });
    const res = await new Client().get(`/annonse/gammel-tittel-${listing.id.slice(0, 6)}`, { redirect: "manual" });
    expect(res.status).toBe(301);
    expect(res.headers.get("Location")).toBe(`/annonse/${listing.seoSlug}`);
  });
});

describe("robots.txt and sitemap", () => {
  it("serves robots.txt as the spec lists it", async () => {
    const res = await new Client().get("/robots.txt");
    expect(res.status).toBe(200);
    const text = await res.text();
    for (const line of [
      "Disallow: /messages",
      "Disallow: /chat/",
      "Disallow: /profile",
      "Disallow: /min-profil",
      "Disallow: /create-listing",
      "Disallow: /edit-listing",
      "Disallow: /my-listings",
      "Disallow: /favoritter",
      "Disallow: /trade-offer/",
      "Disallow: /trade-history",
      "Disallow: /moderation",
      "Disallow: /test-notifications",
      "Disallow: /auth",
      "Disallow: /listing/",
      "Disallow: /bruker/",
      "Disallow: /*?",
      "Allow: /annonse/",
      "Allow: /search",
      "Allow: /om-oss",
      "Allow: /kontakt",
      "Allow: /personvern",
      "Crawl-delay: 1",
      "Sitemap: http://localhost/sitemap.xml",
    ]) {
      expect(text).toContain(line);
    }
  });

  it("writes the sitemap into the private bucket on the scheduled run and serves it", async () => {
    const active = await createListing({ title: "Synlig i sitemap" });
    const hidden = await createListing({ title: "Skjult", isHidden: true });
    const sold = await createListing({ title: "Solgt", status: "sold" });
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "0 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);

    const stored = await env.PRIVATE.get("sitemaps/sitemap.xml");
    const xml = await stored!.text();
    // Never in the photo bucket, and never through the image route.
    expect((await env.IMAGES.list({ prefix: "sitemaps/" })).objects).toEqual([]);
    expect((await new Client().get("/images/sitemaps/sitemap.xml")).status).toBe(404);
    expect(xml).toContain(`<loc>${env.APP_ORIGIN}/annonse/${active.seoSlug}</loc><lastmod>${active.updatedAt.slice(0, 10)}</lastmod>`);
    expect(xml).not.toContain(hidden.seoSlug);
    expect(xml).not.toContain(sold.seoSlug);
    for (const page of ["/", "/search", "/om-oss", "/kontakt", "/personvern"]) expect(xml).toContain(`<loc>${env.APP_ORIGIN}${page}</loc>`);

    const served = await new Client().get("/sitemap.xml");
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toMatch(/application\/xml/);
    expect(await served.text()).toBe(xml);
  });

  it("splits into a sitemap index beyond the per-file limit", async () => {
    for (let i = 0; i < 4; i++) await createListing();
    const result = await generateSitemap(env, "https://lekebytte.no", 3);
    expect(result.files[0]).toBe("sitemap.xml");
    expect(result.files.length).toBeGreaterThan(2);
    const index = await (await new Client().get("/sitemap.xml")).text();
    expect(index).toContain("<sitemapindex");
    expect(index).toContain("<loc>https://lekebytte.no/sitemap-1.xml</loc>");
    const part = await new Client().get("/sitemap-1.xml");
    expect(part.status).toBe(200);
    expect(await part.text()).toContain("<urlset");
    // Back to a single file: the parts are removed.
    await generateSitemap(env, "https://lekebytte.no");
    expect((await new Client().get("/sitemap-1.xml")).status).toBe(404);
  });

  it("generates the sitemap on demand when it is missing", async () => {
    await env.PRIVATE.delete("sitemaps/sitemap.xml");
    const res = await new Client().get("/sitemap.xml");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<urlset");
  });
});

describe("newsletter", () => {
  it("subscribes with lowercased, trimmed e-mail, source website and metadata", async () => {
    const res = await new Client().post("/api/newsletter", {
      email: "  Ola@Eksempel.NO ",
      name: " Ola ",
      signup_page: "/",
      variant: "home",
    });
    expect(res.status).toBe(201);
    const row = await env.DB.prepare(
      "SELECT email, name, source, metadata FROM newsletter_subscribers WHERE email = 'ola@eksempel.no'",
    ).first<{
      metadata: string;
    }>();
    expect(row).toMatchObject({ email: "ola@eksempel.no", name: "Ola", source: "website" });
    expect(JSON.parse(row!.metadata)).toEqual({ signup_page: "/", variant: "home" });
    const again = await new Client().post("/api/newsletter", { email: "OLA@eksempel.no" });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toBe("Denne e-postadressen er allerede registrert for nyhetsbrevet");
  });

  it.each([
    [{}, "Manglende e-post"],
    [{ email: "" }, "Manglende e-post"],
    [{ email: "ola@eksempel" }, "Vennligst oppgi en gyldig e-postadresse"],
    [{ email: "ola eksempel.no" }, "Vennligst oppgi en gyldig e-postadresse"],
  ])("rejects %j with %s", async (body, message) => {
    const res = await new Client().post("/api/newsletter", body);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(message);
  });

  it("rate limits per e-mail", async () => {
    let last: Response | undefined;
    for (let i = 0; i < 6; i++) last = await new Client().post("/api/newsletter", { email: "spam@eksempel.no" });
    expect(last!.status).toBe(429);
  });
});

describe("contact form", () => {
  it("stores the message for the team", async () => {
    const body = { name: "Kari", email: "kari@eksempel.no", subject: "Hjelp", message: "Hvordan bytter jeg?" };
    expect((await new Client().post("/api/contact", body)).status).toBe(201);
    expect(await env.DB.prepare("SELECT name, subject FROM contact_messages WHERE email = 'kari@eksempel.no'").first()).toEqual({
      name: "Kari",
      subject: "Hjelp",
    });
  });

  it("requires every field and rate limits per IP", async () => {
    const res = await new Client().post("/api/contact", { name: "", email: "x", subject: "", message: "" });
    expect(res.status).toBe(400);
    const headers = { "CF-Connecting-IP": "203.0.113.9" };
    const body = { name: "A", email: "a@eksempel.no", subject: "S", message: "M" };
    let last: Response | undefined;
    for (let i = 0; i < 11; i++) last = await new Client().post("/api/contact", body, { headers });
    expect(last!.status).toBe(429);
    expect(last!.headers.get("Retry-After")).toBeTruthy();
  });
});
