// Consent (banner and privacy page) and the owner's statistics panel.
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ListingAnalytics } from "../../domain/schemas/analytics";
import { CONSENT_KEY } from "../../web/analytics/consent";
import { ListingStatsPanel } from "../../web/analytics/stats/ListingStatsPanel";
import { OwnListingStats } from "../../web/analytics/stats/OwnListingStats";
import { SESSION_STORAGE_KEY, stopTracker } from "../../web/analytics/tracker";
import { routes } from "../../web/router";
import { jsonResponse, mockFetch, renderRoutes, renderWithProviders } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn(), loadSonner: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

const analyticsCalls = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls.map(([url]) => String(url)).filter((u) => u.startsWith("/api/analytics"));

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
  vi.spyOn(console, "warn").mockImplementation(() => {});
});

afterEach(() => {
  stopTracker();
  window.localStorage.clear();
});

function mockApi() {
  return mockFetch((url) => {
    if (url.startsWith("/api/analytics/")) return new Response(null, { status: 202 });
    return jsonResponse({ error: { code: "NOT_FOUND", message: "Ikke funnet" } }, 404);
  });
}

const banner = () => screen.findByRole("region", { name: "Hjelp oss å gjøre Lekebytte bedre" }, { timeout: 5_000 });

describe("the consent banner", () => {
  it("appears after the first render, stores nothing until a choice, and 'Bare nødvendige' stores only the choice", async () => {
    const fetch = mockApi();
    renderRoutes(routes, { path: "/om-oss", seed: { session: null } });
    expect(screen.queryByRole("region", { name: "Hjelp oss å gjøre Lekebytte bedre" })).not.toBeInTheDocument();
    const region = await banner();
    expect(within(region).getByRole("link", { name: "personvernsiden" })).toHaveAttribute("href", "/personvern#informasjonskapsler");
    expect(window.localStorage.length).toBe(0);
    expect(window.sessionStorage.length).toBe(0);

    await userEvent.click(within(region).getByRole("button", { name: "Bare nødvendige" }));

    await waitFor(() => expect(screen.queryByRole("region", { name: "Hjelp oss å gjøre Lekebytte bedre" })).not.toBeInTheDocument());
    expect({ ...window.localStorage }).toEqual({ [CONSENT_KEY]: "necessary" });
    expect(window.sessionStorage.length).toBe(0);
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(analyticsCalls(fetch)).toEqual([]);
  });

  it("'Godta analyse' starts the tracker: a session and a page view", async () => {
    const fetch = mockApi();
    renderRoutes(routes, { path: "/om-oss", seed: { session: null } });
    await userEvent.click(within(await banner()).getByRole("button", { name: "Godta analyse" }));

    expect(window.localStorage.getItem(CONSENT_KEY)).toBe("analytics");
    await waitFor(() => expect(analyticsCalls(fetch)).toContain("/api/analytics/sessions"));
    expect(window.sessionStorage.getItem(SESSION_STORAGE_KEY)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("is not shown once a choice is made", async () => {
    window.localStorage.setItem(CONSENT_KEY, "necessary");
    mockApi();
    renderRoutes(routes, { path: "/om-oss", seed: { session: null } });
    await act(() => new Promise((r) => setTimeout(r, 400)));
    expect(screen.queryByRole("region", { name: "Hjelp oss å gjøre Lekebytte bedre" })).not.toBeInTheDocument();
  });
});

describe("changing the choice on the privacy page", () => {
  it("withdraws consent: the tracker stops and the session id is removed", async () => {
    window.localStorage.setItem(CONSENT_KEY, "analytics");
    const fetch = mockApi();
    renderRoutes(routes, { path: "/personvern", seed: { session: null } });
    const settings = await screen.findByTestId("consent-settings");
    expect(within(settings).getByRole("status")).toHaveTextContent("Du har godtatt analyse.");
    await waitFor(() => expect(window.sessionStorage.getItem(SESSION_STORAGE_KEY)).not.toBeNull());

    await userEvent.click(within(settings).getByRole("button", { name: "Bare nødvendige" }));

    expect(within(settings).getByRole("button", { name: "Bare nødvendige" })).toHaveAttribute("aria-pressed", "true");
    expect(within(settings).getByRole("status")).toHaveTextContent("Du har valgt bare nødvendige.");
    await waitFor(() => expect(window.sessionStorage.getItem(SESSION_STORAGE_KEY)).toBeNull());
    expect({ ...window.localStorage }).toEqual({ [CONSENT_KEY]: "necessary" });
    const before = analyticsCalls(fetch).length;
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(analyticsCalls(fetch).length).toBe(before);
  });
});

function stats(overrides: Partial<ListingAnalytics> = {}): ListingAnalytics {
  const days = ["2026-11-18", "2026-11-19", "2026-11-20"].map((day, i) => ({
    day,
    views: [2, 0, 4][i],
    unique_sessions: [2, 0, 3][i],
    avg_view_ms: [5000, null, 65_000][i],
    favourites: [0, 1, 1][i],
    messages_started: [0, 0, 1][i],
    trade_offers: [1, 0, 0][i],
  }));
  return {
    listing_id: "1a2a9c1e-7b4d-4e2a-9c3b-1234567890ab",
    days_back: 3,
    from: "2026-11-18",
    to: "2026-11-20",
    totals: { views: 6, unique_sessions: 5, avg_view_ms: 45_000, favourites: 2, messages_started: 1, trade_offers: 1 },
    days,
    ...overrides,
  };
}

describe("ListingStatsPanel", () => {
  it("shows the figures, a chart with a text alternative and a table per day", async () => {
    const fetch = mockFetch(() => jsonResponse(stats()));
    renderWithProviders(<ListingStatsPanel listingId="1a2a9c1e-7b4d-4e2a-9c3b-1234567890ab" />);
    const figures = await screen.findByTestId("listing-stats-figures");
    const value = (label: string) => within(figures).getByText(label).nextElementSibling?.textContent;
    expect(value("Visninger")).toBe("6");
    expect(value("Unike besøk")).toBe("5");
    expect(value("Snittid på annonsen")).toBe("45 s");
    expect(value("Favoritter")).toBe("2");
    expect(value("Samtaler startet")).toBe("1");
    expect(value("Bytteforslag")).toBe("1");
    expect(screen.getByRole("img", { name: /6 i alt, flest fredag 20\. november med 4/ })).toBeInTheDocument();
    const rows = within(screen.getByRole("table")).getAllByRole("row");
    expect(rows).toHaveLength(4);
    // Newest first: the day, views, unique, average time, favourites, conversations, offers.
    expect(
      within(rows[1])
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["4", "3", "1 min 5 s", "1", "1", "0"]);
    expect(within(rows[1]).getByRole("rowheader")).toHaveTextContent("20. nov.");
    expect(fetch).toHaveBeenCalledWith("/api/analytics/listings/1a2a9c1e-7b4d-4e2a-9c3b-1234567890ab?days=30", expect.anything());

    await userEvent.selectOptions(screen.getByLabelText("Periode"), "7");
    await waitFor(() =>
      expect(fetch).toHaveBeenCalledWith("/api/analytics/listings/1a2a9c1e-7b4d-4e2a-9c3b-1234567890ab?days=7", expect.anything()),
    );
  });

  it("says so when there are no views, and when the figures cannot be fetched", async () => {
    const empty = stats();
    empty.days = empty.days.map((d) => ({ ...d, views: 0 }));
    mockFetch(() => jsonResponse(empty));
    const { unmount } = renderWithProviders(<ListingStatsPanel listingId="x" />);
    expect(await screen.findByRole("img", { name: /ingen visninger ennå/ })).toBeInTheDocument();
    unmount();

    mockFetch(() => jsonResponse({ error: { code: "NOT_FOUND", message: "Fant ikke statistikk for annonsen." } }, 404));
    renderWithProviders(<ListingStatsPanel listingId="y" />);
    expect(await screen.findByText("Kunne ikke hente statistikk")).toBeInTheDocument();
  });
});

describe("OwnListingStats (Mine annonser)", () => {
  it("shows the row's views and opens its statistics", async () => {
    const fetch = mockFetch((url) => {
      if (url.startsWith("/api/analytics/my-listings")) return jsonResponse([{ listing_id: "a", views: 12, unique_sessions: 9 }]);
      return jsonResponse(stats());
    });
    renderWithProviders(
      <>
        <OwnListingStats listingId="a" title="Lego" />
        <OwnListingStats listingId="b" title="Dukke" />
      </>,
    );
    expect(await screen.findByText("12 visninger siste 30 dager")).toBeInTheDocument();
    expect(screen.getByText("0 visninger siste 30 dager")).toBeInTheDocument();
    expect(fetch.mock.calls.filter(([u]) => String(u).startsWith("/api/analytics/my-listings"))).toHaveLength(1);

    const toggle = screen.getByRole("button", { name: "Statistikk Lego" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(await screen.findByRole("heading", { level: 3, name: "Statistikk" })).toBeInTheDocument();
  });
});
