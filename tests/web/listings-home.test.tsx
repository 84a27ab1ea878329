import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { HomePage } from "../../web/routes/home/HomePage";
import { allowConsoleError } from "./console";
import { resetPreloaded } from "../../web/api/preloaded";
import { jsonResponse, listing, mockFetch, renderWithProviders, sessionFor } from "./utils";

vi.mock("../../web/lib/toast", () => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));

describe("HomePage", () => {
  it("shows the six categories as links to filtered search", () => {
    renderWithProviders(<HomePage />, { seed: { session: null, home: { newest: [], free: [], trade: [] } } });
    const expected: Record<string, string> = {
      Lego: "lego",
      Biler: "biler",
      Baby: "baby",
      Puslespill: "puslespill",
      Spill: "spill",
      Dukker: "dukker",
    };
    for (const [label, key] of Object.entries(expected)) {
      expect(screen.getByRole("link", { name: label })).toHaveAttribute("href", `/search?categories=${key}`);
    }
  });

  it("shows 'Laster annonser...' and six skeleton cards of the final size while loading", () => {
    mockFetch(() => new Promise<Response>(() => {}));
    renderWithProviders(<HomePage />, { seed: { session: null } });
    expect(screen.getByText("Laster annonser...")).toBeInTheDocument();
    expect(screen.getAllByTestId("listing-card-skeleton")).toHaveLength(6);
  });

  it("shows the empty text and hides the free and trade sections when there are no listings", () => {
    renderWithProviders(<HomePage />, { seed: { session: null, home: { newest: [], free: [], trade: [] } } });
    expect(screen.getByRole("heading", { name: "Nyeste annonser" })).toBeInTheDocument();
    expect(screen.getByText("Ingen annonser ennå. Vær den første til å legge ut en leke!")).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Gi bort" })).not.toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Åpen for bytte" })).not.toBeInTheDocument();
  });

  it("shows the three sections with 'Se alle' links when there are listings", () => {
    const free = listing({ is_free: true, price: null });
    const trade = listing({ is_trade_offer: true });
    renderWithProviders(<HomePage />, {
      seed: { session: null, home: { newest: [listing(), free, trade], free: [free], trade: [trade] } },
    });
    expect(screen.getByRole("heading", { name: "Gi bort" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Åpen for bytte" })).toBeInTheDocument();
    const seeAll = screen.getAllByRole("link", { name: "Se alle" }).map((a) => a.getAttribute("href"));
    expect(seeAll).toEqual(["/search", "/search?free=true", "/search?trade=true"]);
  });

  it("a failed fetch is logged and shown as an error with a retry, not as an empty marketplace", async () => {
    const user = userEvent.setup();
    const errors = allowConsoleError();
    let fail = true;
    const fetch = mockFetch(() =>
      fail
        ? Promise.resolve(new Response("nope", { status: 500 }))
        : Promise.resolve(jsonResponse({ newest: [listing({ title: "Brio tog" })], free: [], trade: [] })),
    );
    renderWithProviders(<HomePage />, { seed: { session: null } });
    expect(await screen.findByRole("heading", { name: "Kunne ikke hente annonser" })).toBeInTheDocument();
    expect(screen.queryByText("Ingen annonser ennå. Vær den første til å legge ut en leke!")).not.toBeInTheDocument();
    expect(errors.calls().some((args) => String(args[0]).includes("Home listings fetch failed"))).toBe(true);

    fail = false;
    await user.click(screen.getByRole("button", { name: "Prøv igjen" }));
    expect(await screen.findByRole("link", { name: "Brio tog" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Kunne ikke hente annonser" })).not.toBeInTheDocument();
    expect(fetch.mock.calls.filter(([url]) => url === "/api/home").length).toBeGreaterThanOrEqual(2);
  });

  it("uses the home sections the Worker inlined into the page, without a request", async () => {
    const inlined = { newest: [listing({ title: "Innebygd bamse" })], free: [], trade: [] };
    const script = document.createElement("script");
    script.id = "preloaded-api";
    script.type = "application/json";
    script.textContent = JSON.stringify({ "/api/home": inlined });
    document.head.append(script);
    resetPreloaded();
    const fetch = mockFetch(() => new Promise<Response>(() => {}));
    try {
      renderWithProviders(<HomePage />, { seed: { session: null } });
      // Present in the first render: no skeletons, no loading text.
      expect(screen.getByRole("link", { name: "Innebygd bamse" })).toBeInTheDocument();
      expect(screen.queryByText("Laster annonser...")).not.toBeInTheDocument();
      expect(fetch).not.toHaveBeenCalled();
      expect(document.getElementById("preloaded-api")).toBeNull();
    } finally {
      script.remove();
      resetPreloaded();
    }
  });

  it("the first two cards' photos load at once, the rest lazily", () => {
    const images = (n: number) => [`u/${n}.jpg`];
    renderWithProviders(<HomePage />, {
      seed: { session: null, home: { newest: [1, 2, 3, 4].map((n) => listing({ images: images(n) })), free: [], trade: [] } },
    });
    const loading = screen.getAllByRole("img").map((img) => img.getAttribute("loading"));
    expect(loading).toEqual(["eager", "eager", "lazy", "lazy"]);
  });

  it("the call to action goes to /create-listing when signed in, else /auth", () => {
    const { unmount } = renderWithProviders(<HomePage />, { seed: { session: null, home: { newest: [], free: [], trade: [] } } });
    expect(screen.getByRole("link", { name: "Legg ut leke nå" })).toHaveAttribute("href", "/auth");
    unmount();
    renderWithProviders(<HomePage />, { seed: { session: sessionFor("user"), home: { newest: [], free: [], trade: [] } } });
    expect(screen.getByRole("link", { name: "Legg ut leke nå" })).toHaveAttribute("href", "/create-listing");
  });
});
