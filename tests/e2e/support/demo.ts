// The demo data `npm start` seeds (scripts/seed/data.ts), which specs read while other specs run
// beside them. No spec changes these listings. Other specs publish and delete listings of their own
// all the time, so "the newest listing" may be someone else's test listing, payable or deleted a
// moment later: a spec that needs some listing names one of these.
import type { APIRequestContext } from "@playwright/test";
import { expect } from "../fixtures";

/** Every demo account's password. */
export const DEMO_PASSWORD = "lekebytte123";

export const DEMO_LISTINGS = {
  /** Kari's, free: the newest demo listing. */
  free: "Kosebamse, stor brun",
  /** Nora's, 400 kr: the newest demo listing for sale. The demo sellers have no Stripe account. */
  forSale: "Ærlig talt ny sparkesykkel",
  /** Ola's, open for trades: the newest demo trade listing. */
  olasTrade: "Lego Duplo båt",
  /** Emil's, open for trades: the newest demo trade listing that is not Ola's. */
  emilsTrade: "Bøker om dinosaurer og vulkaner (4 stk)",
  /** Kari's most recent conversation, a completed deal with its review prompt: the chat `bench:pages` measures. */
  karisLatestChat: "Bøker om dinosaurer (6 stk)",
} as const;

export interface DemoListing {
  id: string;
  title: string;
  seo_slug: string;
  user_id: string;
  price: number | null;
  is_free: boolean;
}

/** The demo listing with this title, found through search. */
export async function demoListing(request: APIRequestContext, title: string): Promise<DemoListing> {
  const res = await request.get(`/api/search?q=${encodeURIComponent(title)}&limit=50`);
  expect(res.ok(), await res.text()).toBe(true);
  const row = ((await res.json()) as { rows: DemoListing[] }).rows.find((r) => r.title === title);
  expect(row, `the demo listing «${title}»`).toBeDefined();
  return row!;
}
