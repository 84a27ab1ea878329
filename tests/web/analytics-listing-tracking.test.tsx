// The listing page and analytics: a visitor's view is reported only with consent, the owner's own
// visits never are, and the statistics show only to the owner and moderators.
import { act, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Session } from "../../web/api/auth";
import { CONSENT_KEY } from "../../web/analytics/consent";
import { stopTracker } from "../../web/analytics/tracker";
import { ListingByIdPage } from "../../web/routes/listing/ListingByIdPage";
import { resetPreloadedListing } from "../../web/routes/listing/preloaded";
import { listingPage, mockApi, stubBrowserApis } from "./listingHelpers";
import { jsonResponse, renderRoutes, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

function renderListing(session: Session | null, page = listingPage()) {
  const fetch = mockApi((url) => {
    if (url === `/api/listings/${page.id}`) return jsonResponse(page);
    if (url === "/api/favourites/ids") return jsonResponse([]);
    if (url.startsWith("/api/analytics/listings/")) return jsonResponse({ error: { code: "NOT_FOUND", message: "x" } }, 404);
    if (url.startsWith("/api/analytics/")) return new Response(null, { status: 202 });
  });
  renderRoutes([{ path: "/listing/:id", element: <ListingByIdPage /> }], { seed: { session }, path: `/listing/${page.id}` });
  return { fetch, page };
}

const viewReports = (fetch: ReturnType<typeof mockApi>) =>
  fetch.mock.calls
    .filter(([url]) => String(url) === "/api/analytics/listing-views")
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);

beforeEach(() => {
  stubBrowserApis();
  resetPreloadedListing();
  window.localStorage.clear();
  window.sessionStorage.clear();
  vi.spyOn(console, "warn").mockImplementation(() => {});
});

afterEach(() => {
  stopTracker();
  window.localStorage.clear();
});

describe("listing views", () => {
  it("are reported for a visitor who accepted analytics", async () => {
    window.localStorage.setItem(CONSENT_KEY, "analytics");
    const { fetch, page } = renderListing(null);
    await waitFor(() => expect(viewReports(fetch)).toHaveLength(1));
    expect(viewReports(fetch)[0]).toMatchObject({ listingId: page.id, referrerType: "direct", viewDurationMs: 0 });
  });

  it.each([
    ["no choice yet", null],
    ["Bare nødvendige", "necessary"],
  ])("are not reported, and nothing is stored, with %s", async (_name, choice) => {
    if (choice) window.localStorage.setItem(CONSENT_KEY, choice);
    const { fetch, page } = renderListing(null);
    expect(await screen.findByRole("heading", { level: 1, name: page.title })).toBeInTheDocument();
    await act(() => new Promise((r) => setTimeout(r, 100)));
    expect(fetch.mock.calls.filter(([url]) => String(url).startsWith("/api/analytics"))).toEqual([]);
    expect(window.sessionStorage.length).toBe(0);
  });

  it("are not reported for the owner's own visits", async () => {
    window.localStorage.setItem(CONSENT_KEY, "analytics");
    const owner = sessionFor("user");
    const { fetch, page } = renderListing(owner, listingPage({ user_id: owner.user.id }));
    expect(await screen.findByRole("heading", { level: 1, name: page.title })).toBeInTheDocument();
    await act(() => new Promise((r) => setTimeout(r, 100)));
    expect(viewReports(fetch)).toEqual([]);
  });
});

describe("statistics on the listing page", () => {
  it.each([
    ["the owner", true, "user", true],
    ["a moderator", true, "moderator", false],
    ["another user", false, "user", false],
    ["a visitor", false, null, false],
  ] as const)("%s: shown = %s", async (_who, shown, role, owns) => {
    const s: Session | null = role ? sessionFor(role) : null;
    const page = listingPage(owns && s ? { user_id: s.user.id } : {});
    const { fetch } = renderListing(s, page);
    expect(await screen.findByRole("heading", { level: 1, name: page.title })).toBeInTheDocument();
    if (shown) {
      expect(await screen.findByRole("heading", { name: "Statistikk" })).toBeInTheDocument();
      await waitFor(() =>
        expect(fetch.mock.calls.some(([url]) => String(url).startsWith(`/api/analytics/listings/${page.id}`))).toBe(true),
      );
    } else {
      await act(() => new Promise((r) => setTimeout(r, 50)));
      expect(screen.queryByRole("heading", { name: "Statistikk" })).not.toBeInTheDocument();
      expect(fetch.mock.calls.some(([url]) => String(url).startsWith("/api/analytics/listings/"))).toBe(false);
    }
  });
});
