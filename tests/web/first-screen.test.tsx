// The first screen rendered at the edge (web/ssr/render.tsx, decision 103): for each of the five
// pages, the HTML the Worker puts into #root shows the page without JavaScript, hydrates in the
// browser's own tree without a mismatch (React's development build reports any text or attribute
// that differs), and is still the same markup once the browser's render has taken it over.
import { act } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiSearchQuery, parseFilters } from "../../domain/searchUrl";
import { resetPreloaded } from "../../web/api/preloaded";
import { createQueryClient } from "../../web/api/queryClient";
import { Root } from "../../web/Root";
import { resetPreloadedListing } from "../../web/routes/listing/preloaded";
import { renderFirstScreen } from "../../web/ssr/render";
import {
  homeBody,
  listingCardBody,
  listingPageBody,
  publicProfileBody,
  searchBody,
  siteConfigBody,
  TEST_SELLER_ID,
} from "../factories/api";
import { unexpectedConsoleErrors } from "./console";
import { stubBrowserApis } from "./listingHelpers";
import { mockFetch } from "./utils";

interface Case {
  name: string;
  url: string;
  api: Record<string, unknown>;
  listing?: unknown;
  /** Text the first screen must show without any JavaScript. */
  shows: string[];
}

const config = { "/api/config": siteConfigBody() };
const newest = [
  listingCardBody({ title: "Brio togbane med bro" }),
  listingCardBody({ title: "Lego Duplo zoo", is_free: true, price: null }),
];
const detail = listingPageBody({ title: "Barnevogn Emmaljunga", description: "Lite brukt, alltid innendørs." });
const searchUrl = "/search?q=lego";
// Given away: its queue panel is a lazy module of its own, which the edge waits for.
const giveaway = listingPageBody({ title: "Kosebamse, stor brun", is_free: true, price: null });

const CASES: Case[] = [
  { name: "home", url: "/", api: { ...config, "/api/home": homeBody({ newest }) }, shows: ["Brio togbane med bro", "Lego Duplo zoo"] },
  {
    name: "search",
    url: searchUrl,
    // The key the Worker's preloader and the page derive from the address (domain/searchUrl.ts).
    api: { ...config, [`/api/search?${apiSearchQuery(parseFilters("?q=lego"), 0)}`]: searchBody(newest) },
    shows: ["Brio togbane med bro", "Lego Duplo zoo"],
  },
  {
    name: "listing by slug",
    url: `/annonse/${detail.seo_slug}`,
    api: config,
    listing: detail,
    shows: ["Barnevogn Emmaljunga", "Lite brukt"],
  },
  {
    name: "listing by id",
    url: `/listing/${detail.id}`,
    api: { ...config, [`/api/listings/${detail.id}`]: detail },
    shows: ["Barnevogn Emmaljunga", "Lite brukt"],
  },
  {
    name: "a given-away listing",
    url: `/annonse/${giveaway.seo_slug}`,
    api: config,
    listing: giveaway,
    shows: ["Kosebamse, stor brun", "Gratis"],
  },
  {
    name: "public profile",
    url: `/bruker/${TEST_SELLER_ID}`,
    api: { ...config, [`/api/users/${TEST_SELLER_ID}`]: publicProfileBody() },
    shows: ["Ola Hansen", "Kari Nordmann"],
  },
];

/** The page as the Worker serves it: the inlined answers, and the first screen inside #root. */
function servePage(c: Case, html: string, renderedAt: Date): HTMLElement {
  window.history.replaceState(null, "", c.url);
  const listing = c.listing ? `<script id="preloaded-listing" type="application/json">${JSON.stringify(c.listing)}</script>` : "";
  document.body.innerHTML = `<script id="preloaded-api" type="application/json">${JSON.stringify(c.api)}</script>${listing}<div id="root" data-rendered-at="${renderedAt.toISOString()}">${html}</div>`;
  resetPreloaded();
  resetPreloadedListing();
  return document.getElementById("root")!;
}

/**
 * Markup as a browser's DOM holds it, for comparing: React's text separators and Suspense markers
 * (comments, which hydration removes) dropped, adjacent text joined, and the image preloads React
 * renders inline at the edge (in the browser they belong to <head>) left out.
 */
function normalised(html: string): string {
  const template = document.createElement("template");
  template.innerHTML = html;
  const walker = document.createTreeWalker(template.content, NodeFilter.SHOW_COMMENT);
  const comments: Node[] = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  for (const comment of comments) comment.parentNode?.removeChild(comment);
  for (const link of template.content.querySelectorAll('link[rel="preload"][as="image"]')) link.remove();
  template.content.normalize();
  return template.innerHTML;
}

beforeEach(() => {
  stubBrowserApis();
  // The session and everything else the signed-in parts ask for stay pending, as on a first paint.
  mockFetch(() => new Promise<Response>(() => {}));
});

afterEach(() => {
  document.body.innerHTML = "";
});

describe("the first screen rendered at the edge", () => {
  for (const c of CASES) {
    it(`${c.name}: shows the page without JavaScript and hydrates into the same markup without a mismatch`, async () => {
      const renderedAt = new Date();
      const html = await renderFirstScreen({ url: c.url, api: c.api, listing: c.listing, now: renderedAt });
      expect(html, "the page renders at the edge").not.toBeNull();
      const text = new DOMParser().parseFromString(html!, "text/html").body.textContent ?? "";
      for (const shown of c.shows) expect(text).toContain(shown);
      expect(text, "the first screen is the page, not a spinner").not.toContain("Laster");

      // Hydrate it as web/main.tsx does.
      const container = servePage(c, html!, renderedAt);
      const recoverable = vi.fn();
      const root = await act(async () =>
        hydrateRoot(container, <Root queryClient={createQueryClient()} renderedAt={renderedAt} />, { onRecoverableError: recoverable }),
      );
      expect(recoverable).not.toHaveBeenCalled();
      expect(unexpectedConsoleErrors(), "React reports no hydration mismatch").toEqual([]);
      // What the browser's render made of the page is the edge's HTML: React kept every node.
      expect(normalised(container.innerHTML)).toBe(normalised(html!));
      act(() => root.unmount());
    });
  }
});
