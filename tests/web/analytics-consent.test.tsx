// Consent (banner and privacy page) and the owner's statistics panel.
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ListingAnalytics } from "../../domain/schemas/analytics";
import indexHtml from "../../index.html?raw";
import { CONSENT_CHANGE_EVENT, CONSENT_KEY, getConsent } from "../../web/analytics/consent";
import { bindConsentBanner, CONSENT_BANNER_ID } from "../../web/analytics/consentBanner";
import { ListingStatsPanel } from "../../web/analytics/stats/ListingStatsPanel";
import { OwnListingStats } from "../../web/analytics/stats/OwnListingStats";
import { SESSION_STORAGE_KEY, stopTracker } from "../../web/analytics/tracker";
import { routes } from "../../web/router";
import { jsonResponse, mockFetch, renderRoutes, renderWithProviders } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
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

const BANNER_NAME = "Hjelp oss å gjøre Lekebytte bedre";
const banner = () => screen.getByRole("region", { name: BANNER_NAME });
const bannerHidden = () => expect(screen.queryByRole("region", { name: BANNER_NAME })).not.toBeInTheDocument();

/**
 * The static shell as the browser gets it: index.html's <head> script and style, and its banner in
 * the body, outside the app's root; the head script runs before any of the app's code.
 */
function installShell() {
  const shell = new DOMParser().parseFromString(indexHtml, "text/html");
  const style = document.createElement("style");
  style.textContent = shell.head.querySelector("style")!.textContent;
  document.head.append(style);
  document.body.append(document.importNode(shell.getElementById(CONSENT_BANNER_ID)!, true));
  const scripts = [...shell.head.querySelectorAll("script:not([src])")];
  expect(scripts).toHaveLength(1);
  new Function(scripts[0].textContent!)();
  return () => {
    style.remove();
    document.getElementById(CONSENT_BANNER_ID)?.remove();
    document.documentElement.removeAttribute("data-consent");
  };
}

let unbind: () => void = () => {};
let removeShell: () => void = () => {};
afterEach(() => {
  unbind();
  removeShell();
});

/** The app's entry binds the banner (web/consent-banner.ts); then the app renders. */
function startApp(path: string) {
  removeShell = installShell();
  unbind = bindConsentBanner();
  return renderRoutes(routes, { path, seed: { session: null } });
}

describe("the consent banner (static HTML in index.html)", () => {
  it("shows on a first visit as a landmark with its heading, outside the app's root, a fixed overlay", () => {
    removeShell = installShell();
    const region = banner();
    expect(region).toBeVisible();
    expect(within(region).getByRole("heading", { level: 2, name: BANNER_NAME })).toBeInTheDocument();
    expect(region.className).toMatch(/(^| )fixed( |$)/);
    expect(region.className).toMatch(/bottom-0/);
    expect(region.closest("#root")).toBeNull();
  });

  it.each(["necessary", "analytics"])("is hidden by the <head> script, before any app code, once the answer %s is stored", (choice) => {
    window.localStorage.setItem(CONSENT_KEY, choice);
    removeShell = installShell();
    expect(document.documentElement).toHaveAttribute("data-consent", choice);
    expect(screen.getByTestId("consent-banner")).not.toBeVisible();
  });

  it("is shown again for a stored value that is no answer", () => {
    window.localStorage.setItem(CONSENT_KEY, "kanskje");
    removeShell = installShell();
    expect(document.documentElement).not.toHaveAttribute("data-consent");
    expect(banner()).toBeVisible();
  });

  it("stores nothing until a choice, and 'Bare nødvendige' stores only the choice and hides it", async () => {
    const fetch = mockApi();
    startApp("/om-oss");
    const region = banner();
    expect(within(region).getByRole("link", { name: "personvernsiden" })).toHaveAttribute("href", "/personvern#informasjonskapsler");
    expect(window.localStorage.length).toBe(0);
    expect(window.sessionStorage.length).toBe(0);

    await userEvent.click(within(region).getByRole("button", { name: "Bare nødvendige" }));

    bannerHidden();
    expect(screen.getByTestId("consent-banner")).not.toBeVisible();
    expect({ ...window.localStorage }).toEqual({ [CONSENT_KEY]: "necessary" });
    expect(window.sessionStorage.length).toBe(0);
    await act(() => new Promise((r) => setTimeout(r, 400)));
    expect(analyticsCalls(fetch)).toEqual([]);
  });

  it("'Godta analyse' starts the tracker: a session and a page view", async () => {
    const fetch = mockApi();
    startApp("/om-oss");
    await userEvent.click(within(banner()).getByRole("button", { name: "Godta analyse" }));

    expect(window.localStorage.getItem(CONSENT_KEY)).toBe("analytics");
    bannerHidden();
    await waitFor(() => expect(analyticsCalls(fetch)).toContain("/api/analytics/sessions"), { timeout: 5_000 });
    await waitFor(() => expect(analyticsCalls(fetch)).toContain("/api/analytics/events"), { timeout: 8_000 });
    expect(window.sessionStorage.getItem(SESSION_STORAGE_KEY)).toMatch(/^[0-9a-f-]{36}$/);
  }, 15_000);

  it.each([
    ["Bare nødvendige", "necessary"],
    ["Godta analyse", "analytics"],
  ])("'%s' works from index.html's own script, before any of the app's code: stored, hidden, announced", async (name, choice) => {
    removeShell = installShell();
    const announced = vi.fn();
    window.addEventListener(CONSENT_CHANGE_EVENT, announced);
    try {
      await userEvent.click(within(banner()).getByRole("button", { name }));
      expect(window.localStorage.getItem(CONSENT_KEY)).toBe(choice);
      expect(document.documentElement).toHaveAttribute("data-consent", choice);
      expect(screen.getByTestId("consent-banner")).not.toBeVisible();
      // (Each test runs the <head> script again, and its listener stays on the document: called at least once.)
      expect(announced).toHaveBeenCalled();
    } finally {
      window.removeEventListener(CONSENT_CHANGE_EVENT, announced);
    }
  });

  it("the app then follows an answer given before it ran: 'Godta analyse' starts the tracker", async () => {
    const fetch = mockApi();
    removeShell = installShell();
    await userEvent.click(within(banner()).getByRole("button", { name: "Godta analyse" }));
    unbind = bindConsentBanner();
    renderRoutes(routes, { path: "/om-oss", seed: { session: null } });
    bannerHidden();
    await waitFor(() => expect(analyticsCalls(fetch)).toContain("/api/analytics/sessions"), { timeout: 5_000 });
  }, 15_000);

  it("with storage blocked, an answer given before the app ran lasts for the page: the app reads it from <html>", async () => {
    removeShell = installShell();
    const blocked = vi.spyOn(Storage.prototype, "setItem").mockImplementation(() => {
      throw new DOMException("blocked", "SecurityError");
    });
    const unreadable = vi.spyOn(Storage.prototype, "getItem").mockImplementation(() => {
      throw new DOMException("blocked", "SecurityError");
    });
    try {
      await userEvent.click(within(banner()).getByRole("button", { name: "Bare nødvendige" }));
      unbind = bindConsentBanner();
      expect(getConsent()).toBe("necessary");
      expect(screen.getByTestId("consent-banner")).not.toBeVisible();
    } finally {
      blocked.mockRestore();
      unreadable.mockRestore();
    }
  });

  it("hides when the answer is given in another tab", () => {
    removeShell = installShell();
    unbind = bindConsentBanner();
    expect(banner()).toBeVisible();
    window.localStorage.setItem(CONSENT_KEY, "necessary");
    act(() => void window.dispatchEvent(new StorageEvent("storage", { key: CONSENT_KEY })));
    bannerHidden();
  });

  it("'personvernsiden' opens the privacy page inside the app, where the settings show no choice yet", async () => {
    mockApi();
    const { router } = startApp("/om-oss");
    await screen.findByRole("heading", { level: 1, name: "Om oss" });
    // The link navigates inside the app once the root layout has rendered.
    await waitFor(() => expect(fireEvent.click(within(banner()).getByRole("link", { name: "personvernsiden" }))).toBe(false));
    expect(router.state.location.pathname).toBe("/personvern");
    expect(router.state.location.hash).toBe("#informasjonskapsler");
    const settings = await screen.findByTestId("consent-settings");
    expect(within(settings).getByRole("status")).toHaveTextContent("Du har ikke valgt ennå.");

    // The privacy page's choice hides the banner too.
    await userEvent.click(within(settings).getByRole("button", { name: "Bare nødvendige" }));
    bannerHidden();
    expect(within(settings).getByRole("button", { name: "Bare nødvendige" })).toHaveAttribute("aria-pressed", "true");
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
