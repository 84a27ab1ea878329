import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { HomePage } from "../../web/routes/home/HomePage";
import { allowConsoleError } from "./console";
import { listing, mockFetch, renderWithProviders, sessionFor } from "./utils";

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

  it("shows 'Laster annonser...' while loading", () => {
    mockFetch(() => new Promise<Response>(() => {}));
    renderWithProviders(<HomePage />, { seed: { session: null } });
    expect(screen.getByText("Laster annonser...")).toBeInTheDocument();
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
    renderWithProviders(<HomePage />, { seed: { session: null, home: { newest: [listing(), free, trade], free: [free], trade: [trade] } } });
    expect(screen.getByRole("heading", { name: "Gi bort" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Åpen for bytte" })).toBeInTheDocument();
    const seeAll = screen.getAllByRole("link", { name: "Se alle" }).map((a) => a.getAttribute("href"));
    expect(seeAll).toEqual(["/search", "/search?free=true", "/search?trade=true"]);
  });

  it("only logs a failed fetch and shows the empty state", async () => {
    const errors = allowConsoleError();
    mockFetch(() => Promise.resolve(new Response("nope", { status: 500 })));
    renderWithProviders(<HomePage />, { seed: { session: null } });
    expect(await screen.findByText("Ingen annonser ennå. Vær den første til å legge ut en leke!")).toBeInTheDocument();
    expect(errors.calls().some((args) => String(args[0]).includes("Home listings fetch failed"))).toBe(true);
  });

  it("the call to action goes to /create-listing when signed in, else /auth", () => {
    const { unmount } = renderWithProviders(<HomePage />, { seed: { session: null, home: { newest: [], free: [], trade: [] } } });
    expect(screen.getByRole("link", { name: "Legg ut leke nå" })).toHaveAttribute("href", "/auth");
    unmount();
    renderWithProviders(<HomePage />, { seed: { session: sessionFor("user"), home: { newest: [], free: [], trade: [] } } });
    expect(screen.getByRole("link", { name: "Legg ut leke nå" })).toHaveAttribute("href", "/create-listing");
  });
});
