// The listing page: what it shows (photos, price, details, the seller, more from the seller, a
// load failure) and the slug page's inlined listing (its actions: listings-detail-actions.test.tsx).
import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { apiError, listingPage, mockApi } from "./listingHelpers";
import { BUY, renderListing, routes, withListingPage } from "./listingDetailHelpers";
import { jsonResponse, listing, renderRoutes, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

withListingPage();

describe("listing detail", () => {
  it("shows photos with a counter, price, title, details, description and the seller", async () => {
    const page = listingPage({
      title: "Brio togbane",
      price: 1250,
      payment_enabled: true,
      pricing_mode: "marketplace",
      is_trade_offer: true,
      condition_rating: 4,
      category: "biler",
      age_range: "3-5 år",
      postal_code: "9008",
      place_name: "TROMSØ",
      created_at: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    });
    renderListing(page);
    expect(await screen.findByRole("heading", { level: 1, name: "Brio togbane" })).toBeInTheDocument();
    expect(screen.getByText(/^1\s250 kr$/)).toBeInTheDocument();
    expect(screen.getByText("Åpen for bytte")).toBeInTheDocument();
    expect(screen.queryByText("Gi bort")).not.toBeInTheDocument();
    expect(screen.getByText("Meget god – Minimale bruksspor")).toBeInTheDocument();
    expect(screen.getByText("3-5 år")).toBeInTheDocument();
    expect(screen.getByText("Biler")).toBeInTheDocument();
    expect(screen.getByText("9008 Tromsø")).toBeInTheDocument();
    expect(screen.getByText("3t siden")).toBeInTheDocument();
    expect(screen.getByText(/Komplett sett\./)).toBeInTheDocument();

    // The seller's card is a part of its own (web/components/EdgePart.tsx): its code loads with it.
    const seller = await screen.findByRole("region", { name: "Selger" });
    expect(within(seller).getByText("Ola Hansen")).toBeInTheDocument();
    expect(within(seller).getByText("Medlem siden 5. mars 2024")).toBeInTheDocument();

    const carousel = screen.getByRole("region", { name: "Bilder" });
    expect(within(carousel).getByText(/1 \/ 2/)).toBeInTheDocument();
    expect(within(carousel).getByRole("img", { name: "Brio togbane, bilde 1 av 2" })).toHaveAttribute("src", "/images/u2/a.jpg/800.webp");
    expect(within(carousel).getByRole("button", { name: "Forrige bilde" })).toBeDisabled();
    expect(within(carousel).getByRole("button", { name: "Neste bilde" })).toBeInTheDocument();

    // The same title as the edge-rendered page: "{title} - {price} | {poststed} | Lekebytte".
    expect(document.title).toMatch(/^Brio togbane - 1\s250 kr \| Tromsø \| Lekebytte$/);
  });

  it("a hidden listing tells its owner «Skjult av moderator.» and why (the notice loads on its own)", async () => {
    const session = sessionFor("user");
    renderListing(listingPage({ user_id: session.user.id, hidden: { reason: "Kopierte bilder", hidden_at: null, auto: false } }), session);
    expect(await screen.findByText("Skjult av moderator.")).toBeInTheDocument();
    expect(screen.getByText("Årsak: Kopierte bilder")).toBeInTheDocument();
  });

  it("a free listing shows 'Gratis', the 'Gi bort' badge and no buy button; no photos show the stock picture", async () => {
    renderListing(
      listingPage({
        is_free: true,
        price: null,
        images: [],
        seller: {
          user_id: "x",
          display_name: null,
          created_at: "2024-03-05T10:00:00Z",
          phone_verified: false,
          rating: { average: null, count: 0 },
        },
      }),
    );
    expect(await screen.findByText("Gratis")).toBeInTheDocument();
    expect(screen.getByText("Gi bort")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: BUY })).not.toBeInTheDocument();
    expect(await screen.findByText("Anonym")).toBeInTheDocument();
    expect(document.querySelector('img[src="/placeholder-toy.svg"]')).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Neste bilde" })).not.toBeInTheDocument();
  });

  it("a reserved listing shows 'Reservert' and neither buy nor trade", async () => {
    renderListing(listingPage({ status: "reserved", is_trade_offer: true }));
    expect(await screen.findByText("Reservert")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: BUY })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Foreslå bytte" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Send melding" })).toBeInTheDocument();
  });

  it.each([
    ["sold", "Solgt", "Annonsen er solgt.", {}],
    ["given_away", "Gitt bort", "Annonsen er gitt bort.", { is_free: true, price: null }],
    ["traded", "Byttet", "Annonsen er byttet.", { is_trade_offer: true }],
  ] as const)(
    "someone else's %s listing: its badge, the seller's other listings, and no buying, chat, trading, favourite or report",
    async (status, badge, notice, fields) => {
      const more = [listing({ title: "Ledig gyngehest" })];
      const page = listingPage({
        status,
        payment_enabled: true,
        pricing_mode: "marketplace",
        is_trade_offer: true,
        more_from_seller: more,
        ...fields,
      });
      for (const session of [null, sessionFor("user")]) {
        const { unmount } = renderListing(page, session);
        expect(await screen.findByText((_, el) => el?.getAttribute("role") === "status" && el.textContent === notice)).toBeVisible();
        expect(screen.getByText(badge, { selector: "span" })).toBeInTheDocument();
        // Open for nothing any more.
        expect(screen.queryByText("Åpen for bytte")).not.toBeInTheDocument();
        // The seller's card and other listings are parts loaded on their own (decision 120).
        const section = await screen.findByRole("region", { name: "Flere annonser fra Ola Hansen" });
        expect(within(section).getByRole("link", { name: "Ledig gyngehest" })).toBeInTheDocument();
        await screen.findByRole("button", { name: "Rapporter bruker" });
        // The listing's own buttons (the seller's other listings keep their hearts): back, share, the
        // photos, and reporting the seller; nothing that buys, messages, trades, keeps or reports the listing.
        const own = [...document.querySelectorAll("button")]
          .filter((button) => !section.contains(button))
          .map((button) => button.getAttribute("aria-label") ?? button.textContent?.trim());
        expect(own).toEqual(["Tilbake", "Del annonsen", "Forrige bilde", "Neste bilde", "Rapporter bruker"]);
        unmount();
      }
    },
  );

  it("shows up to four more listings from the seller", async () => {
    const more = [1, 2, 3, 4, 5].map((n) => listing({ title: `Mer ${n}` }));
    renderListing(listingPage({ more_from_seller: more }));
    const section = await screen.findByRole("region", { name: "Flere annonser fra Ola Hansen" });
    expect(within(section).getAllByRole("article")).toHaveLength(4);
    expect(within(section).getByRole("link", { name: "Mer 1" })).toHaveAttribute("href", `/annonse/${more[0].seo_slug}`);
  });

  it("a load failure says 'Kunne ikke hente annonse' and goes home", async () => {
    mockApi(() => apiError(404, "NOT_FOUND", "Kunne ikke hente annonse"));
    const { router } = renderRoutes(routes, { seed: { session: null }, path: "/listing/finnes-ikke" });
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke hente annonse", { id: "listing-load", error: expect.anything() });
  });
});

describe("slug page", () => {
  function preload(value: unknown) {
    const script = document.createElement("script");
    script.id = "preloaded-listing";
    script.type = "application/json";
    script.textContent = JSON.stringify(value);
    document.head.append(script);
  }

  it("uses the listing the Worker inlined, without a request, and removes the element", async () => {
    const page = listingPage({ title: "Forhåndslastet", seo_slug: "forhandslastet-abc123" });
    preload(page);
    const fetch = mockApi();
    renderRoutes(routes, { seed: { session: null }, path: "/annonse/forhandslastet-abc123" });
    expect(await screen.findByRole("heading", { level: 1, name: "Forhåndslastet" })).toBeInTheDocument();
    expect(document.getElementById("preloaded-listing")).toBeNull();
    expect(fetch.mock.calls.filter(([url]) => String(url).startsWith("/api/listings"))).toHaveLength(0);
  });

  it("fetches by slug when nothing was inlined for it", async () => {
    preload(listingPage({ seo_slug: "en-annen-aaaaaa" }));
    const page = listingPage({ title: "Hentet", seo_slug: "hentet-abc123" });
    const fetch = mockApi((url) => (url === "/api/listings/by-slug/hentet-abc123" ? jsonResponse(page) : undefined));
    renderRoutes(routes, { seed: { session: null }, path: "/annonse/hentet-abc123" });
    expect(await screen.findByRole("heading", { level: 1, name: "Hentet" })).toBeInTheDocument();
    expect(fetch.mock.calls.some(([url]) => url === "/api/listings/by-slug/hentet-abc123")).toBe(true);
  });

  it("goes to /404, replacing the entry, when the slug does not match", async () => {
    mockApi(() => apiError(404, "NOT_FOUND", "Kunne ikke hente annonse"));
    const { router } = renderRoutes(routes, { seed: { session: null }, path: "/annonse/finnes-ikke-abc123" });
    await waitFor(() => expect(router.state.location.pathname).toBe("/404"));
    expect(router.state.historyAction).toBe("REPLACE");
  });
});
