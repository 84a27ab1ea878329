import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ListingCard, paymentBadgeLabel } from "../../web/components/ListingCard";
import { jsonResponse, listing, mockFetch, renderRoutes, renderWithProviders, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

const NOW = new Date("2025-06-10T12:00:00Z");

describe("ListingCard", () => {
  it("shows title, price, condition label, relative time and links to the slug page", () => {
    const item = listing({
      title: "Brio togbane",
      price: 1250,
      condition_rating: 4,
      seo_slug: "brio-togbane-a1b2c3",
      created_at: "2025-06-10T09:00:00Z",
    });
    renderWithProviders(<ListingCard listing={item} now={NOW} />);

    expect(screen.getByRole("link", { name: "Brio togbane" })).toHaveAttribute("href", "/annonse/brio-togbane-a1b2c3");
    // Intl uses a no-break space as the thousands separator.
    expect(screen.getByText(/^1\s250 kr$/)).toBeInTheDocument();
    expect(screen.getByText("Meget god")).toBeInTheDocument();
    expect(screen.getByText("3t siden")).toBeInTheDocument();
    expect(screen.queryByText("Gi bort")).not.toBeInTheDocument();
    expect(screen.queryByText("Åpen for bytte")).not.toBeInTheDocument();
  });

  it("shows 'Gratis' and the 'Gi bort' badge for free listings, and the trade badge", () => {
    renderWithProviders(
      <ListingCard listing={listing({ is_free: true, price: null, is_trade_offer: true, condition_rating: 5 })} now={NOW} />,
    );
    expect(screen.getByText("Gratis")).toBeInTheDocument();
    expect(screen.getByText("Gi bort")).toBeInTheDocument();
    expect(screen.getByText("Åpen for bytte")).toBeInTheDocument();
    expect(screen.getByText("Utmerket")).toBeInTheDocument();
  });

  it("uses the first image, lazy-loaded with the title as alt, else the placeholder", () => {
    const { unmount } = renderWithProviders(
      <ListingCard listing={listing({ title: "Dukkevogn", images: ["u1/bilde 1.jpg", "u1/2.jpg"] })} />,
    );
    const img = screen.getByRole("img", { name: "Dukkevogn" });
    expect(img).toHaveAttribute("src", "/images/u1/bilde%201.jpg/360.webp");
    expect(img).toHaveAttribute("loading", "lazy");
    unmount();

    const { container } = renderWithProviders(<ListingCard listing={listing({ images: [] })} />);
    expect(container.querySelector("img")).toHaveAttribute("src", "/placeholder-toy.svg");
  });

  it("shows a payment badge only when payment is enabled and the mode is not standard", () => {
    const paid = { is_free: false, price: 450 };
    expect(paymentBadgeLabel({ ...paid, payment_enabled: true, pricing_mode: "stripe" })).toBe("Stripe");
    expect(paymentBadgeLabel({ ...paid, payment_enabled: true, pricing_mode: "vipps" })).toBe("Vipps");
    expect(paymentBadgeLabel({ ...paid, payment_enabled: true, pricing_mode: "marketplace" })).toBe("Sikker betaling");
    expect(paymentBadgeLabel({ ...paid, payment_enabled: true, pricing_mode: "standard" })).toBeNull();
    expect(paymentBadgeLabel({ ...paid, payment_enabled: false, pricing_mode: "vipps" })).toBeNull();
    // Nothing to pay: a free listing (or one below the providers' minimum) never gets a badge.
    expect(paymentBadgeLabel({ is_free: true, price: null, payment_enabled: true, pricing_mode: "marketplace" })).toBeNull();
    expect(paymentBadgeLabel({ is_free: false, price: 2, payment_enabled: true, pricing_mode: "marketplace" })).toBeNull();

    const { unmount } = renderWithProviders(<ListingCard listing={listing({ payment_enabled: true, pricing_mode: "marketplace" })} />);
    expect(screen.getByText("Sikker betaling")).toBeInTheDocument();
    unmount();

    renderWithProviders(<ListingCard listing={listing({ payment_enabled: false, pricing_mode: "stripe" })} />);
    expect(screen.queryByText("Stripe")).not.toBeInTheDocument();
  });

  it("the favourite heart does not open the listing; the card link does", async () => {
    const item = listing({ title: "Sparkesykkel", seo_slug: "sparkesykkel-abc123" });
    mockFetch((url) => (url === "/api/favourites/ids" ? jsonResponse([]) : jsonResponse({}, 404)));
    renderRoutes(
      [
        { path: "/", element: <ListingCard listing={item} /> },
        { path: "/annonse/:slug", element: <p>Annonsesiden</p> },
      ],
      { seed: { session: sessionFor("user") } },
    );
    await userEvent.click(screen.getByRole("button", { name: "Legg til i favoritter" }));
    expect(screen.queryByText("Annonsesiden")).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole("link", { name: "Sparkesykkel" }));
    expect(await screen.findByText("Annonsesiden")).toBeInTheDocument();
  });
});

describe("ListingCard favourite heart", () => {
  beforeEach(() => {
    toast.toastError.mockReset();
  });

  it("a visitor gets 'Logg inn påkrevd' and /auth, and no request is made", async () => {
    const fetch = mockFetch(() => jsonResponse({}, 404));
    const { router } = renderRoutes(
      [
        { path: "/", element: <ListingCard listing={listing()} /> },
        { path: "/auth", element: <p>Innlogging</p> },
      ],
      { seed: { session: null } },
    );
    const heart = screen.getByRole("button", { name: "Legg til i favoritter" });
    expect(heart).toHaveAttribute("aria-pressed", "false");
    await userEvent.click(heart);
    expect(toast.toastError).toHaveBeenCalledWith("Logg inn påkrevd", "Du må være logget inn for å lagre favoritter", {
      id: "login-required",
    });
    await waitFor(() => expect(router.state.location.pathname).toBe("/auth"));
    expect(fetch).not.toHaveBeenCalled();
  });

  it("shows saved favourites pressed, and removes one with DELETE", async () => {
    const item = listing();
    const fetch = mockFetch((url, init) => {
      if (url === "/api/favourites/ids") return jsonResponse([item.id]);
      if (url === `/api/favourites/${item.id}` && init?.method === "DELETE") return new Response(null, { status: 204 });
      return jsonResponse({}, 404);
    });
    renderWithProviders(<ListingCard listing={item} />, { seed: { session: sessionFor("user") } });
    const heart = await screen.findByRole("button", { name: "Fjern fra favoritter" });
    expect(heart).toHaveAttribute("aria-pressed", "true");
    await userEvent.click(heart);
    expect(await screen.findByRole("button", { name: "Legg til i favoritter" })).toHaveAttribute("aria-pressed", "false");
    expect(fetch.mock.calls.some(([url, init]) => url === `/api/favourites/${item.id}` && init?.method === "DELETE")).toBe(true);
  });

  it("adds with PUT, and a failure puts the heart back with the server's message", async () => {
    const item = listing();
    mockFetch((url, init) => {
      if (url === "/api/favourites/ids") return jsonResponse([]);
      if (init?.method === "PUT") return jsonResponse({ error: { code: "NOT_FOUND", message: "Kunne ikke hente annonse" } }, 404);
      return jsonResponse({}, 404);
    });
    renderWithProviders(<ListingCard listing={item} />, { seed: { session: sessionFor("user") } });
    await userEvent.click(await screen.findByRole("button", { name: "Legg til i favoritter" }));
    await waitFor(() => expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke hente annonse", { error: expect.anything() }));
    expect(screen.getByRole("button", { name: "Legg til i favoritter" })).toHaveAttribute("aria-pressed", "false");
  });
});
