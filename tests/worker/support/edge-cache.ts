// Shared by the edge-cache tests (tests/worker/edge-cache-*.integration.test.ts): a listing of its own
// word, every page and API answer a visitor can see it on, and what a visitor sees there (status,
// whether the text is there, and where the answer came from).
import { createListing, createUser, type ListingRow } from "../../factories";
import { Client } from "./http";

/** A word no other listing has, so search finds exactly ours. */
export const word = () => `kantine${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;

export async function listing(title = `${word()} brannbil`): Promise<ListingRow> {
  const owner = await createUser({ displayName: "Selma Selger" });
  return createListing({ userId: owner.id, title, images: [`${owner.id}/1700000000000-bil.jpg`] });
}

/** Every page and API answer a visitor can see the listing on. */
export const surfaces = (row: ListingRow) => {
  const q = encodeURIComponent(row.title.split(" ")[0]);
  return [
    "/",
    "/api/home",
    `/search?q=${q}`,
    `/api/search?q=${q}`,
    `/annonse/${row.seoSlug}`,
    `/listing/${row.id}`,
    `/api/listings/${row.id}`,
    `/api/listings/by-slug/${row.seoSlug}`,
    `/bruker/${row.userId}`,
    `/api/users/${row.userId}`,
  ];
};

export async function look(path: string, client = new Client()) {
  const res = await client.get(path);
  return { path, status: res.status, edge: res.headers.get("X-Edge-Cache"), headers: res.headers, text: await res.text() };
}

/** What a visitor sees on every surface: status, whether the text is there, and where it came from. */
export async function seen(row: ListingRow, text: string) {
  const out: string[] = [];
  for (const path of surfaces(row)) {
    const r = await look(path);
    out.push(`${path} ${r.status} ${r.status === 200 && r.text.includes(text) ? "shows" : "absent"}`);
  }
  return out;
}

export const everywhere = (row: ListingRow) => surfaces(row).map((p) => `${p} 200 shows`);
