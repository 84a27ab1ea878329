// The listing page's actions: buy, message and trade for visitors and buyers, the owner's tools
// (mark sold, delete), favourite and share.
import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { TEST_CONVERSATION_ID, startConversationBody } from "../factories/api";
import { apiError, bodyOf, listingPage, method, mockApi, ME } from "./listingHelpers";
import { BUY, renderListing, routes, withListingPage } from "./listingDetailHelpers";
import { jsonResponse, renderRoutes, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

withListingPage();

describe("listing detail: actions", () => {
  it("a visitor sees the buy button; tapping it asks to sign in", async () => {
    const { user, router } = renderListing(listingPage({ price: 300, payment_enabled: true, pricing_mode: "marketplace" }));
    await user.click(await screen.findByRole("button", { name: "Kjøp nå med trygg betaling (Vipps/Stripe) - 300 kr" }));
    expect(toast.toastError).toHaveBeenCalledWith("Innlogging påkrevd", "Du må være innlogget for å kjøpe", { id: "login-required" });
    await waitFor(() => expect(router.state.location.pathname).toBe("/auth"));
  });

  it("a listing that cannot be paid in the app promises no 'trygg betaling': the bar says to contact the seller", async () => {
    // What the Worker sends for a seller without a Stripe account that takes charges (decision 089).
    const { user } = renderListing(
      listingPage({ price: 450, is_trade_offer: true, payment_enabled: false, pricing_mode: "standard" }),
      sessionFor("user"),
    );
    const bar = await screen.findByTestId("listing-action-bar");
    expect(within(bar).getByText("Kontakt selgeren for å kjøpe")).toBeInTheDocument();
    expect(within(bar).getByText("450 kr")).toBeInTheDocument();
    expect(within(bar).getByRole("button", { name: "Send melding" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Kjøp nå/ })).not.toBeInTheDocument();
    expect(screen.queryByText(/trygg betaling/i)).not.toBeInTheDocument();
    // One "Send melding" on the page; "Foreslå bytte" is under the title, not in the bar.
    expect(screen.getAllByRole("button", { name: "Send melding" })).toHaveLength(1);
    expect(within(bar).queryByRole("button", { name: "Foreslå bytte" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Foreslå bytte" }));
  });

  it("a payable listing's bar holds only the buy button; 'Foreslå bytte' and 'Send melding' are under the title", async () => {
    renderListing(listingPage({ price: 450, is_trade_offer: true, payment_enabled: true, pricing_mode: "vipps" }), sessionFor("user"));
    const bar = await screen.findByTestId("listing-action-bar");
    expect(
      within(bar)
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual(["Kjøp nå med trygg betaling (Vipps/Stripe) - 450 kr"]);
    expect(screen.getAllByRole("button", { name: "Send melding" })).toHaveLength(1);
    expect(screen.getAllByRole("button", { name: "Foreslå bytte" })).toHaveLength(1);
  });

  it("a visitor asking to message or trade gets 'Logg inn påkrevd' and /auth", async () => {
    const page = listingPage({ is_trade_offer: true });
    let view = renderListing(page);
    await view.user.click(await screen.findByRole("button", { name: "Send melding" }));
    expect(toast.toastError).toHaveBeenCalledWith("Logg inn påkrevd", "Du må være logget inn for å sende melding", {
      id: "login-required",
    });
    await waitFor(() => expect(view.router.state.location.pathname).toBe("/auth"));
    // Sign-in comes back to this listing and carries on with the message.
    expect(new URLSearchParams(view.router.state.location.search).get("next")).toBe(`/listing/${page.id}?handling=melding`);
    view.unmount();

    view = renderListing(page);
    await view.user.click(await screen.findByRole("button", { name: "Foreslå bytte" }));
    expect(toast.toastError).toHaveBeenCalledWith("Logg inn påkrevd", "Du må være logget inn for å foreslå bytte", {
      id: "login-required",
    });
    await waitFor(() => expect(view.router.state.location.pathname).toBe("/auth"));
    expect(new URLSearchParams(view.router.state.location.search).get("next")).toBe(`/trade-offer/${page.id}`);
  });

  it("back from sign-in with ?handling=melding: starts the conversation once and opens the chat", async () => {
    const page = listingPage();
    const fetch = mockApi(
      (url, init) => (url === "/api/conversations" && method(init) === "POST" ? jsonResponse(startConversationBody(), 201) : undefined),
      (url) => {
        if (url === `/api/listings/${page.id}`) return jsonResponse(page);
        if (url === "/api/favourites/ids") return jsonResponse([]);
      },
    );
    const { router } = renderRoutes(routes, { seed: { session: sessionFor("user") }, path: `/listing/${page.id}?handling=melding` });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/chat/${TEST_CONVERSATION_ID}`));
    const starts = fetch.mock.calls.filter(([url, init]) => url === "/api/conversations" && method(init) === "POST");
    expect(starts).toHaveLength(1);
    expect(bodyOf(starts[0][1])).toEqual({ listing_id: page.id });
    // Back from the chat: the marker is gone, so the listing does not start it again.
    router.navigate(-1);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/listing/${page.id}`));
    expect(router.state.location.search).toBe("");
  });

  it("a signed-in buyer's buy button opens the payment chooser; trade and message go on", async () => {
    const page = listingPage({ is_trade_offer: true, payment_enabled: true, pricing_mode: "marketplace" });
    let view = renderListing(page, sessionFor("user"));
    const buy = await screen.findByRole("button", { name: BUY });
    expect(buy).toBeEnabled();
    await view.user.click(buy);
    const dialog = await screen.findByRole("dialog", { name: "Velg betalingsmåte" });
    expect(within(dialog).getByRole("radio", { name: /Kort, Apple Pay eller Google Pay/ })).toBeChecked();
    await view.user.click(within(dialog).getByRole("button", { name: "Lukk" }));
    expect(screen.queryByRole("link", { name: "Rediger" })).not.toBeInTheDocument();
    await view.user.click(screen.getByRole("button", { name: "Foreslå bytte" }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe(`/trade-offer/${page.id}`));
    view.unmount();

    view = renderListing(page, sessionFor("user"), (url, init) =>
      url === "/api/conversations" && method(init) === "POST" ? jsonResponse(startConversationBody(), 201) : undefined,
    );
    await view.user.click(await screen.findByRole("button", { name: "Send melding" }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe(`/chat/${TEST_CONVERSATION_ID}`));
    const start = view.fetch.mock.calls.find(([url]) => url === "/api/conversations");
    expect(bodyOf(start?.[1])).toEqual({ listing_id: page.id });
  });

  it.each([
    { answer: () => apiError(500, "INTERNAL", "Noe gikk galt. Prøv igjen."), toast: ["Feil", "Kunne ikke starte samtale"] },
    // The owner normally gets the owner tools instead of the button; this is the Worker's 403 for a stale page.
    {
      answer: () => apiError(403, "FORBIDDEN", "Du kan ikke sende melding til deg selv"),
      toast: ["Dette er din annonse", "Du kan ikke sende melding til deg selv"],
    },
  ])("'Send melding' that cannot start the conversation says '$toast.1' and stays", async ({ answer, toast: expected }) => {
    const page = listingPage();
    const view = renderListing(page, sessionFor("user"), (url, init) =>
      url === "/api/conversations" && method(init) === "POST" ? answer() : undefined,
    );
    await view.user.click(await screen.findByRole("button", { name: "Send melding" }));
    // Title and text; a failure is handed on with them (its Feilkode, decision 133).
    await waitFor(() => expect(toast.toastError.mock.calls.map((call) => call.slice(0, 2))).toContainEqual(expected));
    expect(view.router.state.location.pathname).toBe(`/listing/${page.id}`);
    expect(screen.getByRole("button", { name: "Send melding" })).toBeEnabled();
  });

  it("the owner gets owner tools instead of buy, 'Foreslå bytte' and 'Send melding'", async () => {
    const page = listingPage({ user_id: ME.id, is_trade_offer: true, status: "active" });
    const { user } = renderListing(page, sessionFor("user"));
    // Owner tools are a lazy chunk: on a busy machine loading it can take longer than findBy's 1 s.
    const tools = await screen.findByRole("group", { name: "Din annonse" }, { timeout: 5_000 });
    expect(within(tools).getByRole("link", { name: "Rediger" })).toHaveAttribute("href", `/edit-listing/${page.id}`);
    expect(within(tools).getByRole("button", { name: "Slett" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: BUY })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Foreslå bytte" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Send melding" })).not.toBeInTheDocument();

    await user.click(within(tools).getByRole("button", { name: "Status" }));
    const items = (await screen.findAllByRole("menuitem")).map((item) => item.textContent);
    expect(items).toEqual(["Marker som reservert", "Marker som solgt", "Marker som gitt bort"]);
  });

  it("the owner marks the listing sold from the page, and the page shows it", async () => {
    const page = listingPage({ user_id: ME.id, status: "active" });
    let current = page;
    const { user, fetch } = renderListing(page, sessionFor("user"), (url, init) => {
      if (url === `/api/listings/${page.id}/status` && method(init) === "POST") {
        current = { ...page, status: "sold" };
        return jsonResponse(current);
      }
      if (url === `/api/listings/${page.id}`) return jsonResponse(current);
    });
    await user.click(await screen.findByRole("button", { name: "Status" }));
    await user.click(await screen.findByRole("menuitem", { name: "Marker som solgt" }));
    await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Annonsen er markert som solgt"));
    expect(fetch.mock.calls.some(([url, init]) => url === `/api/listings/${page.id}/status` && method(init) === "POST")).toBe(true);
    expect(
      await screen.findByText((_, el) => el?.tagName === "P" && el.textContent === "Annonsen er markert som solgt og vises ikke i søk."),
    ).toBeInTheDocument();
  });

  it("the owner deletes the listing after the spec's confirmation and lands on the profile", async () => {
    const page = listingPage({ user_id: ME.id, status: "active" });
    const { user, router } = renderListing(page, sessionFor("user"), (url, init) =>
      url === `/api/listings/${page.id}` && method(init) === "DELETE" ? new Response(null, { status: 204 }) : undefined,
    );
    await user.click(await screen.findByRole("button", { name: "Slett" }));
    const dialog = await screen.findByRole("alertdialog");
    expect(
      within(dialog).getByText("Er du sikker på at du vil slette denne annonsen? Denne handlingen kan ikke angres."),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Slett annonsen" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/profile"));
    expect(toast.toastSuccess).toHaveBeenCalledWith("Annonse slettet");
  });

  it("the owner of a sold listing is told others still open it, but it is off search and home", async () => {
    renderListing(listingPage({ user_id: ME.id, status: "sold" }), sessionFor("user"));
    expect(
      await screen.findByText((_, el) => el?.tagName === "P" && el.textContent === "Annonsen er markert som solgt og vises ikke i søk."),
    ).toBeInTheDocument();
    expect(screen.getByText("Solgt")).toBeInTheDocument();
  });

  it("the favourite toggle is saved and shown pressed", async () => {
    const page = listingPage();
    const { user, fetch } = renderListing(page, sessionFor("user"), (url, init) =>
      url === `/api/favourites/${page.id}` && method(init) === "PUT" ? new Response(null, { status: 204 }) : undefined,
    );
    const heart = await screen.findByRole("button", { name: "Legg til i favoritter" });
    expect(heart).toHaveAttribute("aria-pressed", "false");
    await user.click(heart);
    expect(await screen.findByRole("button", { name: "Fjern fra favoritter" })).toHaveAttribute("aria-pressed", "true");
    expect(fetch.mock.calls.some(([url, init]) => url === `/api/favourites/${page.id}` && method(init) === "PUT")).toBe(true);
  });

  it("share copies the /annonse link when the browser cannot share", async () => {
    const page = listingPage({ seo_slug: "brio-togbane-a1b2c3" });
    const writeText = vi.fn(() => Promise.resolve());
    const { user } = renderListing(page);
    // After userEvent.setup(), which puts its own clipboard on navigator.
    vi.stubGlobal("navigator", { ...navigator, share: undefined, clipboard: { writeText } });
    await user.click(await screen.findByRole("button", { name: "Del annonsen" }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/annonse/brio-togbane-a1b2c3`);
    expect(toast.toastSuccess).toHaveBeenCalledWith("Lenke kopiert");
  });

  it("share uses the system share sheet when there is one", async () => {
    const page = listingPage({ title: "Dukkevogn", seo_slug: "dukkevogn-abc123" });
    const share = vi.fn(() => Promise.resolve());
    vi.stubGlobal("navigator", { ...navigator, share });
    const { user } = renderListing(page);
    await user.click(await screen.findByRole("button", { name: "Del annonsen" }));
    expect(share).toHaveBeenCalledWith({ title: "Dukkevogn", url: `${window.location.origin}/annonse/dukkevogn-abc123` });
    expect(toast.toastSuccess).not.toHaveBeenCalled();
  });
});
