import { Hono } from "hono";
import { appMode, type AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { getListingDetail, listingDetailByKey } from "../listings/listings";
import { jsonForScript } from "../../lib/html";
import { headTags, listingBody, listingMeta, profileBody, profileHeadTags, profileMeta, type PreloadedListing } from "./seo";
import { publicProfile, type PublicProfile } from "../reviews/reviews";
import { readSitemap } from "./sitemap";
import { fetchShell, notFoundPage } from "../shell/routes";
import { robotsRules } from "../../../domain/routes";
import type { Db } from "../../db/client";
import { readAccessCookie } from "../../lib/cookies";
import { actorForAccessToken } from "../auth/session";

/** The listing as its owner or a moderator sees it, when the request carries such a session; else null. */
async function privateView(env: AppEnv["Bindings"], db: Db, id: string, token: string | undefined): Promise<PreloadedListing | null> {
  const actor = token ? await actorForAccessToken(env, token) : null;
  if (!actor) return null;
  try {
    return await getListingDetail(db, id, actor);
  } catch (err) {
    if (err instanceof AppError) return null;
    throw err;
  }
}

async function sitemapResponse(env: AppEnv["Bindings"], origin: string, file: string): Promise<Response> {
  const sitemap = await readSitemap(env, origin, file);
  if (!sitemap) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(sitemap.body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600", ETag: sitemap.etag },
  });
}
import { siteConfig } from "../shell/site-config";
import { pageModules, preloadWrites } from "../shell/preload";
import { firstScreenWrites, renderPage } from "../shell/first-screen";
import { listingAnswerTags } from "../../lib/edge-cache";

export const seoRoutes = new Hono<AppEnv>()
  .get("/annonse/:slug", async (c) => {
    const url = new URL(c.req.url);
    const db = c.var.db;
    // Visitors' view (only publicly visible listings): the edge page is the same for everyone (and
    // cacheable). One D1 statement resolves the slug and reads the page's data (decision 113).
    const found = await listingDetailByKey(db, { slug: c.req.param("slug") }, null);
    const id = found.id;
    const listing: PreloadedListing | null = found.detail;
    if (!listing && id) {
      // Hidden by moderation or deleted: a 404 for everyone, except the owner and moderators, who get
      // the plain shell (never cached, never indexed) and load the listing through the API with their
      // cookie (the owner sees it marked hidden with the reason).
      const own = await privateView(c.env, db, id, readAccessCookie(c));
      if (own) {
        if (own.seo_slug !== c.req.param("slug")) return c.redirect(`/annonse/${own.seo_slug}`, 301);
        const page = await fetchShell(
          c.env,
          url,
          preloadWrites({ api: { "/api/config": siteConfig(c.env) }, modules: await pageModules(c.env, url) }),
        );
        const headers = new Headers(page.headers);
        headers.set("Cache-Control", "private, no-store");
        headers.set("X-Robots-Tag", "noindex");
        headers.delete("ETag");
        return new Response(page.body, { status: 200, headers });
      }
    }
    if (!listing) return notFoundPage(c.env, url);
    if (listing.seo_slug !== c.req.param("slug")) return c.redirect(`/annonse/${listing.seo_slug}`, 301);

    c.set("edgeTags", listingAnswerTags(listing));
    const meta = listingMeta(listing, url.origin, c.env.APP_NAME);
    const firstKey = listing.images.find((k) => k.length > 0);
    const preload = {
      api: { "/api/config": siteConfig(c.env) },
      image: firstKey ? { key: firstKey, shownAs: "screen" as const } : undefined,
      modules: await pageModules(c.env, url),
    };
    // The page's first screen as the SPA renders it (decision 103); if that fails, a plain body
    // for crawlers and readers without JavaScript, which the SPA replaces.
    const screen = await renderPage({ url: url.pathname + url.search, api: preload.api, listing });
    const { headStart, headEnd } = preloadWrites(preload);
    const rewritten = await fetchShell(c.env, url, {
      headStart,
      // The SPA reads the listing from here instead of fetching it again.
      headEnd: `${headEnd}${headTags(meta, c.env.APP_NAME)}<script id="preloaded-listing" type="application/json">${jsonForScript(listing)}</script>`,
      title: meta.title,
      withoutDescription: true,
      ...(screen ? firstScreenWrites(screen) : { rootHtml: listingBody(listing) }),
    });
    const headers = new Headers(rewritten.headers);
    headers.set("Content-Type", "text/html; charset=utf-8");
    // Revalidated on every visit (no max-age): a listing a moderator hides or its owner closes must
    // not live on in a browser or shared cache (docs/decisions/050-moderation.md).
    headers.set("Cache-Control", "public, no-cache");
    headers.delete("ETag");
    return new Response(rewritten.body, { status: 200, headers });
  })
  // The public profile (decision 071): the same edge treatment as a listing page — meta tags, a
  // readable body and the API answer inlined — and a real 404 for unknown or deleted users.
  .get("/bruker/:id", async (c) => {
    const url = new URL(c.req.url);
    const id = c.req.param("id");
    let profile: PublicProfile;
    try {
      profile = await publicProfile(c.var.db, id);
    } catch (err) {
      if (err instanceof AppError) return notFoundPage(c.env, url);
      throw err;
    }
    const meta = profileMeta(profile, url.origin, c.env.APP_NAME);
    const preload = {
      api: { "/api/config": siteConfig(c.env), [`/api/users/${encodeURIComponent(id)}`]: profile },
      modules: await pageModules(c.env, url),
    };
    const screen = await renderPage({ url: url.pathname + url.search, api: preload.api });
    const { headStart, headEnd } = preloadWrites(preload);
    const rewritten = await fetchShell(c.env, url, {
      headStart,
      headEnd: headEnd + profileHeadTags(meta, c.env.APP_NAME),
      title: meta.title,
      withoutDescription: true,
      ...(screen ? firstScreenWrites(screen) : { rootHtml: profileBody(profile) }),
    });
    const headers = new Headers(rewritten.headers);
    headers.set("Content-Type", "text/html; charset=utf-8");
    // Reviews and hides show at once (as on listing pages); never indexed.
    headers.set("Cache-Control", "public, no-cache");
    headers.set("X-Robots-Tag", "noindex");
    headers.delete("ETag");
    return new Response(rewritten.body, { status: 200, headers });
  })
  .get("/robots.txt", (c) => {
    // Staging is for us, not for search engines (docs/decisions/136-staging-and-production.md).
    if (appMode(c.env) === "staging") return c.text("User-agent: *\nDisallow: /\n", 200, { "Cache-Control": "public, max-age=3600" });
    const origin = new URL(c.req.url).origin;
    // The route table decides what is open (domain/routes.ts); query strings are never crawled.
    const { allow, disallow } = robotsRules();
    const body = [
      "User-agent: *",
      ...allow.map((prefix) => `Allow: ${prefix}`),
      ...disallow.map((prefix) => `Disallow: ${prefix}`),
      "Disallow: /*?",
      "Crawl-delay: 1",
      "",
      `Sitemap: ${origin}/sitemap.xml`,
      "",
    ].join("\n");
    return c.text(body, 200, { "Cache-Control": "public, max-age=3600" });
  })
  .get("/:file{[A-Za-z0-9-]{8,128}\\.txt}", async (c, next) => {
    const key = c.env.INDEXNOW_KEY;
    if (!key || c.req.param("file") !== `${key}.txt`) return next();
    return c.text(key);
  })
  .get("/sitemap.xml", (c) => sitemapResponse(c.env, new URL(c.req.url).origin, "sitemap.xml"))
  .get("/:file{sitemap-[0-9]+\\.xml}", (c) => sitemapResponse(c.env, new URL(c.req.url).origin, c.req.param("file")));
