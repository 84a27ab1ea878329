import type { Bindings } from "../../env";
import { listedListingSql } from "../listings/visibility";
import { escapeHtml } from "../../lib/html";
import { sitemapPaths } from "../../../domain/routes";

/** The open pages besides listings: the route table's indexed pages without parameters. */
export const OPEN_PAGES = sitemapPaths();
export const URLS_PER_SITEMAP = 50_000;
/** Sitemaps live in the PRIVATE bucket, which the image route can never read. */
const PREFIX = "sitemaps/";

interface Entry {
  loc: string;
  lastmod?: string;
}

function urlset(entries: Entry[]): string {
  const urls = entries
    .map((e) => `<url><loc>${escapeHtml(e.loc)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ""}</url>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

function sitemapIndex(origin: string, files: string[], lastmod: string): string {
  const items = files.map((f) => `<sitemap><loc>${escapeHtml(`${origin}/${f}`)}</loc><lastmod>${lastmod}</lastmod></sitemap>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items}\n</sitemapindex>\n`;
}

/**
 * Write the sitemap into R2: one urlset while everything fits in 50,000 URLs, otherwise
 * sitemap.xml becomes an index of sitemap-1.xml, sitemap-2.xml, … Returns the number of URLs.
 * Read from the primary (env.DB), also on a request: it is kept for an hour, so a lagging replica
 * could bring back a listing a moderator has just hidden (docs/decisions/110-read-replicas.md).
 */
export async function generateSitemap(
  env: Bindings,
  origin: string,
  perFile = URLS_PER_SITEMAP,
): Promise<{ urls: number; files: string[] }> {
  const entries: Entry[] = OPEN_PAGES.map((p) => ({ loc: `${origin}${p === "/" ? "/" : p}` }));
  const pageSize = 10_000;
  for (let offset = 0; ; offset += pageSize) {
    const { results } = await env.DB.prepare(
      `SELECT seo_slug, updated_at FROM listings WHERE ${listedListingSql()} ORDER BY created_at, id LIMIT ?1 OFFSET ?2`,
    )
      .bind(pageSize, offset)
      .all<{ seo_slug: string; updated_at: string }>();
    for (const r of results)
      entries.push({ loc: `${origin}/annonse/${encodeURIComponent(r.seo_slug)}`, lastmod: r.updated_at.slice(0, 10) });
    if (results.length < pageSize) break;
  }
  const meta = { httpMetadata: { contentType: "application/xml; charset=utf-8" }, customMetadata: { origin } };
  const now = new Date().toISOString().slice(0, 10);
  const written: string[] = [];
  if (entries.length <= perFile) {
    await env.PRIVATE.put(`${PREFIX}sitemap.xml`, urlset(entries), meta);
    written.push("sitemap.xml");
  } else {
    const parts: string[] = [];
    for (let i = 0; i * perFile < entries.length; i++) {
      const name = `sitemap-${i + 1}.xml`;
      await env.PRIVATE.put(`${PREFIX}${name}`, urlset(entries.slice(i * perFile, (i + 1) * perFile)), meta);
      parts.push(name);
    }
    await env.PRIVATE.put(`${PREFIX}sitemap.xml`, sitemapIndex(origin, parts, now), meta);
    written.push("sitemap.xml", ...parts);
  }
  // Parts left over from a larger earlier run would be stale.
  const listed = await env.PRIVATE.list({ prefix: `${PREFIX}sitemap-` });
  const stale = listed.objects.map((o) => o.key).filter((k) => !written.includes(k.slice(PREFIX.length)));
  if (stale.length) await env.PRIVATE.delete(stale);
  return { urls: entries.length, files: written };
}

export interface StoredSitemap {
  body: ReadableStream;
  etag: string;
}

/**
 * A sitemap file from R2, or null. When sitemap.xml is missing (never written, or dropped by
 * `invalidateSitemap`) the whole sitemap is generated first; a part that does not exist while
 * sitemap.xml does stays a 404 without regenerating anything.
 */
export async function readSitemap(env: Bindings, origin: string, file: string): Promise<StoredSitemap | null> {
  let object = await env.PRIVATE.get(`${PREFIX}${file}`);
  if (!object && (file === "sitemap.xml" || !(await env.PRIVATE.head(`${PREFIX}sitemap.xml`)))) {
    await generateSitemap(env, origin);
    object = await env.PRIVATE.get(`${PREFIX}${file}`);
  }
  return object ? { body: object.body, etag: object.httpEtag } : null;
}

/**
 * Drop the stored sitemap (every file) so the next request writes it afresh: a moderation decision
 * (hide, delete, unhide, auto-hide) must not wait for the hourly cron.
 */
export async function invalidateSitemap(env: Bindings): Promise<void> {
  const listed = await env.PRIVATE.list({ prefix: PREFIX });
  const keys = listed.objects.map((o) => o.key);
  if (keys.length) await env.PRIVATE.delete(keys);
}
