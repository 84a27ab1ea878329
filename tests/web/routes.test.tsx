import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { currentYear } from "../../domain/format";
import { routes } from "../../web/router";
import { testNotificationsAvailableBody } from "../factories/api";
import { jsonResponse, mockFetch, renderRoutes, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

const emptyHome = { newest: [], free: [], trade: [] };

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

describe("router and layout", () => {
  it("renders the layout landmarks, the skip link and one h1 on the home page", async () => {
    renderRoutes(routes, { seed: { session: null, home: emptyHome } });
    expect(await screen.findByRole("heading", { level: 1 })).toBeInTheDocument();
    expect(screen.getAllByRole("heading", { level: 1 })).toHaveLength(1);
    expect(screen.getByRole("banner")).toBeInTheDocument();
    expect(screen.getByRole("main")).toHaveAttribute("id", "main");
    expect(screen.getByRole("contentinfo")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Hopp til innhold" })).toHaveAttribute("href", "#main");
  });

  it("the footer shows the links, the contact details and the copyright line", async () => {
    renderRoutes(routes, { seed: { session: null, home: emptyHome } });
    const footer = screen.getByRole("contentinfo");
    const hrefs = within(footer)
      .getAllByRole("link")
      .map((a) => a.getAttribute("href"));
    for (const href of [
      "/search",
      "/create-listing",
      "/auth",
      "/profile",
      "/om-oss",
      "/kontakt",
      "/personvern",
      "/personvern#vilkar",
      "/personvern#informasjonskapsler",
      "mailto:hei@lekebytte.no",
      "tel:+4722123456",
    ]) {
      expect(hrefs).toContain(href);
    }
    expect(new Set(hrefs).size, "each footer link once").toBe(hrefs.length);
    expect(within(footer).getByText("Storgata 1, 0155 Oslo")).toBeInTheDocument();
    expect(within(footer).getByText(new RegExp(`© ${currentYear()} Lekebytte`))).toBeInTheDocument();
  });

  it("the copyright year is Oslo's: on New Year's night it turns at midnight in Norway, not in UTC", async () => {
    // 23:30 UTC on 31 December is 00:30 on 1 January in Oslo.
    vi.useFakeTimers({ now: new Date("2026-12-31T23:30:00Z"), toFake: ["Date"] });
    try {
      renderRoutes(routes, { seed: { session: null, home: emptyHome } });
      expect(within(screen.getByRole("contentinfo")).getByText(/© 2027 Lekebytte/)).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it("an unknown path shows the 404 screen", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    renderRoutes(routes, { seed: { session: null }, path: "/finnes-ikke" });
    expect(await screen.findByRole("heading", { name: "404 - Siden finnes ikke" })).toBeInTheDocument();
    expect(warn).toHaveBeenCalled();
  });

  it.each([
    "/",
    "/auth",
    "/auth/callback",
    "/search",
    "/listing/abc",
    "/payment-success",
    "/betaling-fullfort",
    "/om-oss",
    "/kontakt",
    "/personvern",
  ])("open route %s renders a page (not the 404)", async (path) => {
    renderRoutes(routes, { seed: { session: null, home: emptyHome }, path });
    // Pages are lazy chunks: on a busy machine loading one (the listing page's is the largest) can take longer than findBy's 1 s.
    expect(await screen.findByRole("heading", { level: 1 }, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.queryByText("404 - Siden finnes ikke")).not.toBeInTheDocument();
  });

  it.each([
    ["/profile", "Min profil"],
    ["/min-profil", "Min profil"],
    ["/my-listings", "Mine annonser"],
    ["/favoritter", "Favoritter"],
  ])("account page %s renders for a signed-in user", async (path, title) => {
    mockFetch(() => new Promise<Response>(() => {}));
    renderRoutes(routes, { seed: { session: sessionFor("user") }, path });
    expect(await screen.findByRole("heading", { level: 1, name: title })).toBeInTheDocument();
  });

  // /edit-listing/:id is covered by listings-edit.test.tsx (it needs the listing first).
  it.each([["/create-listing", "Ny annonse"]])("listing form %s renders for a signed-in user", async (path, title) => {
    mockFetch(() => new Promise<Response>(() => {}));
    renderRoutes(routes, { seed: { session: sessionFor("user") }, path });
    expect(await screen.findByRole("heading", { level: 1, name: title })).toBeInTheDocument();
  });

  it("an unknown slug goes to the 404 screen", async () => {
    mockFetch((url) =>
      url.startsWith("/api/listings/by-slug/")
        ? jsonResponse({ error: { code: "NOT_FOUND", message: "Kunne ikke hente annonse" } }, 404)
        : jsonResponse({}, 404),
    );
    vi.spyOn(console, "warn").mockImplementation(() => {});
    renderRoutes(routes, { seed: { session: null }, path: "/annonse/lego-abc123" });
    expect(await screen.findByRole("heading", { name: "404 - Siden finnes ikke" })).toBeInTheDocument();
  });

  it("/test-notifications renders its page when the endpoint exists (local mode), else the 404", async () => {
    mockFetch((url) => (url === "/api/test-notifications" ? jsonResponse(testNotificationsAvailableBody()) : jsonResponse({}, 404)));
    const first = renderRoutes(routes, { seed: { session: null }, path: "/test-notifications" });
    expect(await screen.findByRole("heading", { level: 1, name: "Test av varsler" })).toBeInTheDocument();
    first.unmount();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    mockFetch(() => jsonResponse({ error: { code: "NOT_FOUND", message: "Ikke funnet" } }, 404));
    renderRoutes(routes, { seed: { session: null }, path: "/test-notifications" });
    expect(await screen.findByRole("heading", { level: 1, name: "404 - Siden finnes ikke" })).toBeInTheDocument();
  });

  it.each([
    ["/messages", "Meldinger"],
    ["/chat/c0c0c0c0-0000-4000-8000-000000000001", "Laster samtale..."],
    ["/trade-offer/l1", "Laster annonse..."],
    ["/trade-history", "Laster byttehistorikk..."],
  ])("chat or trade page %s renders for a signed-in user", async (path, text) => {
    mockFetch(() => new Promise<Response>(() => {}));
    renderRoutes(routes, { seed: { session: sessionFor("user") }, path });
    expect(await screen.findAllByText(text)).not.toHaveLength(0);
  });

  it("/moderation renders the dashboard for a signed-in user (the server decides who may use it)", async () => {
    mockFetch(() => new Promise<Response>(() => {}));
    renderRoutes(routes, { seed: { session: sessionFor("user") }, path: "/moderation" });
    expect(await screen.findByRole("heading", { level: 1, name: "Moderering" })).toBeInTheDocument();
  });
});

describe("protected routes for visitors", () => {
  it("shows a centred spinner with 'Laster...' while the session loads", async () => {
    mockFetch(() => new Promise<Response>(() => {}));
    renderRoutes(routes, { path: "/my-listings" });
    expect(await screen.findByRole("status")).toHaveTextContent("Laster...");
  });

  it("shows the sign-in form in place of the page; empty fields give the spec's toast", async () => {
    renderRoutes(routes, { seed: { session: null }, path: "/my-listings" });
    expect(await screen.findByRole("heading", { level: 1, name: "Du må logge inn" })).toBeInTheDocument();
    const form = await screen.findByRole("form", { name: "Logg inn" });
    await userEvent.click(within(form).getByRole("button", { name: "Logg inn" }));
    expect(toast.toastError).toHaveBeenCalledWith("Feil", "Vennligst fyll ut e-post og passord.");
  });

  it("signing in through the wrapper stays on the page and shows it", async () => {
    const fetch = mockFetch((url) => (url === "/api/auth/signin" ? jsonResponse(sessionFor("user")) : jsonResponse({}, 404)));
    const { router } = renderRoutes(routes, { seed: { session: null }, path: "/favoritter" });
    const form = await screen.findByRole("form", { name: "Logg inn" });
    await userEvent.type(within(form).getByLabelText("E-post"), "kari@example.no");
    await userEvent.type(within(form).getByLabelText("Passord"), "hemmelig1");
    await userEvent.click(within(form).getByRole("button", { name: "Logg inn" }));

    expect(await screen.findByRole("heading", { level: 1, name: "Favoritter" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/favoritter");
    expect(toast.toastSuccess).toHaveBeenCalledWith("Velkommen tilbake!", "Du er nå logget inn.");
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({ email: "kari@example.no", password: "hemmelig1" });
  });

  it("wrong credentials give 'Feil innloggingsopplysninger'", async () => {
    mockFetch(() => jsonResponse({ error: { code: "INVALID_CREDENTIALS", message: "E-post eller passord er feil. Prøv igjen." } }, 400));
    renderRoutes(routes, { seed: { session: null }, path: "/moderation" });
    const form = await screen.findByRole("form", { name: "Logg inn" });
    await userEvent.type(within(form).getByLabelText("E-post"), "kari@example.no");
    await userEvent.type(within(form).getByLabelText("Passord"), "feil");
    await userEvent.click(within(form).getByRole("button", { name: "Logg inn" }));
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Feil innloggingsopplysninger", "E-post eller passord er feil. Prøv igjen."),
    );
  });

  it.each(["/profile", "/messages", "/trade-history"])("%s sends a visitor to /auth", async (path) => {
    const { router } = renderRoutes(routes, { seed: { session: null }, path });
    await waitFor(() => expect(router.state.location.pathname).toBe("/auth"));
  });

  it("/create-listing gives a visitor a toast and /auth", async () => {
    const { router } = renderRoutes(routes, { seed: { session: null }, path: "/create-listing" });
    await waitFor(() => expect(router.state.location.pathname).toBe("/auth"));
    expect(toast.toastError).toHaveBeenCalledWith("Feil", "Du må være logget inn for å legge ut en annonse", { id: "login-required" });
  });
});

describe("sign-out", () => {
  it("posts to /api/auth/signout, says 'Logget ut' and goes to /", async () => {
    const fetch = mockFetch((url) => (url === "/api/auth/signout" ? new Response(null, { status: 204 }) : jsonResponse({}, 404)));
    const { router } = renderRoutes(routes, { seed: { session: sessionFor("user"), home: emptyHome }, path: "/my-listings" });
    await userEvent.click(await screen.findByRole("button", { name: "Min konto" }));
    await userEvent.click(await screen.findByRole("menuitem", { name: "Logg ut" }));

    await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Logget ut", "Du er nå logget ut av Lekebytte"));
    // The page's own requests (its list) come first; the sign-out is one POST.
    const signOuts = fetch.mock.calls.filter(([url]) => url === "/api/auth/signout");
    expect(signOuts).toHaveLength(1);
    expect(signOuts[0][1]?.method).toBe("POST");
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(await screen.findByRole("link", { name: "Logg inn" })).toHaveAttribute("href", "/auth");
  });
});
