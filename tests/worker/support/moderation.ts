// Shared by the moderation tests (tests/worker/moderation/): filing a report as a user from a network
// of its own, a moderator's client and actions, and where a visitor can find a listing (home, search,
// the seller's other listings, the listing API, the slug page, the sitemap and the photo).
import { env } from "cloudflare:workers";
import type { HomeSections, ListingDetail } from "../../../domain/schemas/listing";
import type { SearchResult } from "../../../domain/schemas/search";
import { ago, createListing, createUser, DAY, signedInClient, type TestUser } from "../../factories";
import { Client } from "./http";

export const REASON = "Falsk annonse";

let network = 0;
/** An IPv4 address on a /24 of its own (auto-hide counts reporters on one network once). */
export const ownNetwork = () => {
  network += 1;
  return `10.${(network >> 8) & 255}.${network & 255}.7`;
};

export async function reportAs(
  user: TestUser | { id: string },
  target_type: string,
  target_id: string,
  extra: Record<string, unknown> = {},
  ip: string = ownNetwork(),
) {
  const client = await signedInClient(user.id);
  return client.post("/api/reports", { target_type, target_id, reason: REASON, ...extra }, { headers: { "CF-Connecting-IP": ip } });
}

/** A reporter auto-hide counts: confirmed, a month old, in good standing. */
export const established = (overrides: Parameters<typeof createUser>[0] = {}) => createUser({ createdAt: ago(30 * DAY), ...overrides });

export async function moderator(role: "moderator" | "admin" = "moderator") {
  const user = await createUser({ role });
  return { user, client: await signedInClient(user.id) };
}

/** The pending report on a target (the newest), as the dashboard gives it. */
export async function openReportId(type: string, id: string): Promise<string> {
  const row = await env.DB.prepare(
    "SELECT id FROM reports WHERE target_type = ?1 AND target_id = ?2 AND status IN ('pending','reviewed') ORDER BY created_at DESC",
  )
    .bind(type, id)
    .first<{ id: string }>();
  if (!row) throw new Error("no open report");
  return row.id;
}

export async function act(client: Client, reportId: string, action: string, notes?: string) {
  return client.post(`/api/moderation/reports/${reportId}/actions`, { action, notes });
}

/** A unique word for search, so other tests' listings never match. */
export const word = () => `moderasjonstest${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;

/** Where a visitor (or `client`) can find a listing. */
export async function surfaces(
  listing: { id: string; seo_slug: string; title: string; user_id: string; image: string; more_via: string },
  client = new Client(),
) {
  const home = (await (await client.get("/api/home")).json()) as HomeSections;
  const inHome = [...home.newest, ...home.free, ...home.trade].some((l) => l.id === listing.id);
  const search = (await (await client.get(`/api/search?q=${encodeURIComponent(listing.title.split(" ")[0])}`)).json()) as SearchResult;
  const inSearch = search.rows.some((r) => r.id === listing.id);
  const other = (await (await client.get(`/api/listings/${listing.more_via}`)).json()) as ListingDetail & {
    more_from_seller: { id: string }[];
  };
  const inSellerList = other.more_from_seller.some((l) => l.id === listing.id);
  const api = (await client.get(`/api/listings/${listing.id}`)).status;
  const slug = (await client.get(`/annonse/${listing.seo_slug}`, { redirect: "manual" })).status;
  const sitemap = await (await client.get("/sitemap.xml")).text();
  const inSitemap = sitemap.includes(`/annonse/${listing.seo_slug}`);
  const image = (await client.get(`/images/${listing.image}`)).status;
  return { inHome, inSearch, inSellerList, api, slug, inSitemap, image };
}

/** The hide columns of a listing, and what they hold once it is shown again. */
export const hideFields = (id: string) =>
  env.DB.prepare("SELECT is_hidden, auto_hidden, hidden_reason, hidden_at FROM listings WHERE id = ?1").bind(id).first();
export const SHOWN = { is_hidden: 0, auto_hidden: 0, hidden_reason: null, hidden_at: null };

export const VISIBLE = { inHome: true, inSearch: true, inSellerList: true, api: 200, slug: 200, inSitemap: true, image: 200 };
export const GONE = { inHome: false, inSearch: false, inSellerList: false, api: 404, slug: 404, inSitemap: false, image: 404 };

/** A public listing with a photo and a second listing of the same seller (for "more from seller"). */
export async function publicListing() {
  const owner = await createUser();
  const image = `${owner.id}/${crypto.randomUUID()}.jpg`;
  await env.IMAGES.put(image, new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
  const title = `${word()} lekebil`;
  const sibling = await createListing({ userId: owner.id, title: "Søskenannonse" });
  const row = await createListing({ userId: owner.id, title, images: [image] });
  return { owner, row, target: { id: row.id, seo_slug: row.seoSlug, title, user_id: owner.id, image, more_via: sibling.id } };
}
