// Saved searches in the web: "Lagre søk" on /search (name, alert, errors, visitors sign in first),
// the "Lagrede søk" page (new matches, open, alert, rename, delete), the unsubscribe page and the
// account menu's badge.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { errorBody, savedSearchBadgeBody, savedSearchBody, searchBody, unsubscribeBody, type SavedSearchBody } from "../factories/api";
import { Header } from "../../web/components/layout/Header";
import { SavedSearchesPage } from "../../web/routes/saved-searches/SavedSearchesPage";
import { UnsubscribePage } from "../../web/routes/saved-searches/UnsubscribePage";
import { SearchPage } from "../../web/routes/search/SearchPage";
import { SAVED_SEARCH_TEXTS } from "../../domain/saved-searches";
import { method } from "./listingHelpers";
import { jsonResponse, listing, mockFetch, renderRoutes, renderWithProviders, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

type Handler = (url: URL, init: RequestInit | undefined) => Response | undefined | Promise<Response | undefined>;

/** Answers the search and whatever `handler` knows; anything else is a 404 the test would notice. */
function api(handler: Handler = () => undefined) {
  return mockFetch(async (raw, init) => {
    const url = new URL(raw, "http://localhost");
    const answer = await handler(url, init);
    if (answer) return answer;
    if (url.pathname === "/api/search") return jsonResponse(searchBody([listing(), listing()]));
    return jsonResponse(errorBody("NOT_FOUND", `ukjent ${url.pathname}`), 404);
  });
}

const calls = (fetch: ReturnType<typeof api>, verb: string, path: string | RegExp) =>
  fetch.mock.calls
    .filter(
      ([u, init]) =>
        method(init) === verb &&
        (typeof path === "string" ? new URL(String(u), "http://localhost").pathname === path : path.test(String(u))),
    )
    .map(([, init]) => (init?.body ? JSON.parse(String(init.body)) : undefined));

describe("'Lagre søk' on /search", () => {
  const routes = [{ path: "/search", Component: SearchPage }];

  it("is not offered for an empty search, which would match everything", async () => {
    api();
    renderRoutes(routes, { path: "/search", seed: { session: sessionFor() } });
    expect(await screen.findByText("2 annonser")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Lagre søk" })).not.toBeInTheDocument();
  });

  it.each([
    ["/search?q=lego&categories=lego", "Lego"],
    ["/search?q=LEGO&categories=lego,biler", "LEGO, Biler"],
    ["/search?q=duplo&categories=lego", "Duplo, Lego"],
  ])("%s suggests the name '%s' (the text and a filter with the same word are said once)", async (path, suggested) => {
    api();
    renderRoutes(routes, { path, seed: { session: sessionFor() } });
    await userEvent.click(await screen.findByRole("button", { name: "Lagre søk" }));
    const dialog = await screen.findByRole("dialog", { name: "Lagre søk" });
    expect(within(dialog).getByLabelText("Navn på søket")).toHaveValue(suggested);
  });

  it("saves the canonical filters under the suggested or typed name with the chosen alert", async () => {
    const fetch = api((url) => (url.pathname === "/api/saved-searches" ? jsonResponse(savedSearchBody(), 201) : undefined));
    renderRoutes(routes, { path: "/search?categories=cars,lego&q=duplo&free=true", seed: { session: sessionFor() } });
    await userEvent.click(await screen.findByRole("button", { name: "Lagre søk" }));

    const dialog = await screen.findByRole("dialog", { name: "Lagre søk" });
    expect(dialog).toHaveAccessibleDescription("«duplo» · Lego · Biler · Kun gratis");
    const name = within(dialog).getByLabelText("Navn på søket");
    expect(name).toHaveValue("Duplo, Lego, Biler, Kun gratis");
    expect(within(dialog).getByRole("radio", { name: /^Straks/ })).toBeChecked();
    await userEvent.clear(name);
    await userEvent.type(name, "  Duplo til Ida ");
    await userEvent.click(within(dialog).getByRole("radio", { name: /^Daglig oppsummering/ }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Lagre søk" }));

    await waitFor(() =>
      expect(toast.toastSuccess).toHaveBeenCalledWith("Søket er lagret", "Du finner det under «Lagrede søk» i kontomenyen."),
    );
    expect(calls(fetch, "POST", "/api/saved-searches")).toEqual([
      { name: "Duplo til Ida", query: "q=duplo&categories=lego,biler&free=true", alert: "daily" },
    ]);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("refuses an empty name before sending, and shows the server's refusal in the dialog", async () => {
    const fetch = api((url) =>
      url.pathname === "/api/saved-searches" ? jsonResponse(errorBody("CONFLICT", SAVED_SEARCH_TEXTS.duplicate), 409) : undefined,
    );
    renderRoutes(routes, { path: "/search?q=brio", seed: { session: sessionFor() } });
    await userEvent.click(await screen.findByRole("button", { name: "Lagre søk" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.clear(within(dialog).getByLabelText("Navn på søket"));
    await userEvent.click(within(dialog).getByRole("button", { name: "Lagre søk" }));
    expect(within(dialog).getByText(SAVED_SEARCH_TEXTS.nameRequired)).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Navn på søket")).toHaveAttribute("aria-invalid", "true");
    expect(calls(fetch, "POST", "/api/saved-searches")).toEqual([]);

    await userEvent.type(within(dialog).getByLabelText("Navn på søket"), "Brio");
    await userEvent.click(within(dialog).getByRole("button", { name: "Lagre søk" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(SAVED_SEARCH_TEXTS.duplicate);
    expect(screen.getByRole("dialog")).toBeInTheDocument();
    expect(toast.toastSuccess).not.toHaveBeenCalled();
  });

  it("asks a visitor to sign in first, in the dialog, and saves nothing", async () => {
    const fetch = api();
    renderRoutes(routes, { path: "/search?q=brio", seed: { session: null } });
    await userEvent.click(await screen.findByRole("button", { name: "Lagre søk" }));
    const dialog = await screen.findByRole("dialog", { name: "Lagre søk" });
    expect(within(dialog).getByText("Logg inn for å lagre søket og få beskjed når det kommer nye annonser.")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("E-post")).toBeInTheDocument();
    expect(within(dialog).getByRole("link", { name: "Opprett en konto" })).toHaveAttribute("href", "/auth");
    expect(within(dialog).queryByLabelText("Navn på søket")).not.toBeInTheDocument();
    expect(calls(fetch, "POST", "/api/saved-searches")).toEqual([]);
  });
});

describe("/lagrede-sok", () => {
  const routes = [
    { path: "/lagrede-sok", Component: SavedSearchesPage },
    { path: "/search", Component: SearchPage },
  ];

  function withSearches(list: SavedSearchBody[], extra: Handler = () => undefined) {
    let current = list;
    const fetch = api(async (url, init) => {
      const answer = await extra(url, init);
      if (answer) return answer;
      if (url.pathname === "/api/saved-searches" && method(init) === "GET") return jsonResponse(current);
      const id = /^\/api\/saved-searches\/([^/]+)/.exec(url.pathname)?.[1];
      const found = current.find((s) => s.id === id);
      if (!found) return undefined;
      if (method(init) === "PATCH") {
        const change = JSON.parse(String(init!.body)) as Partial<SavedSearchBody>;
        current = current.map((s) => (s.id === id ? { ...s, ...change } : s));
        return jsonResponse(current.find((s) => s.id === id));
      }
      if (method(init) === "DELETE") {
        current = current.filter((s) => s.id !== id);
        return new Response(null, { status: 204 });
      }
      if (method(init) === "POST" && url.pathname.endsWith("/seen")) return new Response(null, { status: 204 });
      return undefined;
    });
    return fetch;
  }

  it("lists each search with its filters, new matches and alert, and opens it on /search", async () => {
    const duplo = savedSearchBody({ name: "Duplo til Ida", query: "q=duplo&categories=lego", new_count: 3, alert: "immediate" });
    const quiet = savedSearchBody({ name: "Sykkel", query: "q=sykkel&postal=0150", new_count: 0, alert: "off" });
    const many = savedSearchBody({ name: "Alt gratis", query: "free=true", new_count: 100, alert: "daily" });
    const fetch = withSearches([duplo, quiet, many]);
    const { router } = renderRoutes(routes, { path: "/lagrede-sok", seed: { session: sessionFor() } });

    const card = (await screen.findByRole("article", { name: "Duplo til Ida" })) as HTMLElement;
    expect(within(card).getByText("3 nye")).toBeInTheDocument();
    expect(within(card).getByText("«duplo» · Lego")).toBeInTheDocument();
    expect(within(card).getByRole("combobox", { name: "Varsel" })).toHaveValue("immediate");
    const sykkel = screen.getByRole("article", { name: "Sykkel" });
    expect(within(sykkel).getByText("Ingen nye")).toBeInTheDocument();
    expect(within(sykkel).getByRole("combobox", { name: "Varsel" })).toHaveValue("off");
    expect(within(screen.getByRole("article", { name: "Alt gratis" })).getByText("99+ nye")).toBeInTheDocument();

    const open = within(card).getByRole("link", { name: "Vis treff for Duplo til Ida" });
    expect(open).toHaveAttribute("href", "/search?q=duplo&categories=lego");
    await userEvent.click(open);
    await waitFor(() => expect(router.state.location.pathname).toBe("/search"));
    expect(router.state.location.search).toBe("?q=duplo&categories=lego");
    await waitFor(() => expect(calls(fetch, "POST", `/api/saved-searches/${duplo.id}/seen`)).toHaveLength(1));
  });

  it("changes the alert, renames (not to an empty name) and deletes after asking", async () => {
    const search = savedSearchBody({ name: "Duplo", query: "q=duplo" });
    const fetch = withSearches([search]);
    renderRoutes(routes, { path: "/lagrede-sok", seed: { session: sessionFor() } });
    const card = () => screen.getByRole("article", { name: /Duplo/ });
    await screen.findByRole("article", { name: "Duplo" });

    await userEvent.selectOptions(within(card()).getByRole("combobox", { name: "Varsel" }), "daily");
    await waitFor(() => expect(calls(fetch, "PATCH", `/api/saved-searches/${search.id}`)).toEqual([{ alert: "daily" }]));
    expect(toast.toastSuccess).toHaveBeenCalledWith("Varselet er endret", "«Duplo»: Daglig oppsummering");

    await userEvent.click(within(card()).getByRole("button", { name: "Gi nytt navn til Duplo" }));
    const field = within(card()).getByLabelText("Nytt navn");
    await userEvent.clear(field);
    await userEvent.click(within(card()).getByRole("button", { name: "Lagre" }));
    expect(within(card()).getByText(SAVED_SEARCH_TEXTS.nameRequired)).toBeInTheDocument();
    await userEvent.type(field, "Duplo til Ida");
    await userEvent.click(within(card()).getByRole("button", { name: "Lagre" }));
    expect(await screen.findByRole("heading", { name: "Duplo til Ida" })).toBeInTheDocument();
    expect(calls(fetch, "PATCH", `/api/saved-searches/${search.id}`)).toEqual([{ alert: "daily" }, { name: "Duplo til Ida" }]);

    await userEvent.click(within(card()).getByRole("button", { name: "Slett Duplo til Ida" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Slette det lagrede søket?" });
    expect(calls(fetch, "DELETE", `/api/saved-searches/${search.id}`)).toEqual([]);
    await userEvent.click(within(confirm).getByRole("button", { name: "Slett søket" }));
    expect(await screen.findByText("Du har ingen lagrede søk ennå.")).toBeInTheDocument();
    expect(calls(fetch, "DELETE", `/api/saved-searches/${search.id}`)).toHaveLength(1);
    expect(screen.getByRole("link", { name: "Gå til søk" })).toHaveAttribute("href", "/search");
  });
});

describe("/lagrede-sok/avmeld", () => {
  const routes = [{ path: "/lagrede-sok/avmeld", Component: UnsubscribePage }];

  it("switches the alert off once as the page opens, signed out", async () => {
    const fetch = api((url) =>
      url.pathname === "/api/saved-searches/unsubscribe" ? jsonResponse(unsubscribeBody("Duplo til Ida")) : undefined,
    );
    renderRoutes(routes, { path: "/lagrede-sok/avmeld?token=abc.def", seed: { session: null }, strict: true });
    expect(await screen.findByRole("heading", { name: "Varselet er slått av" })).toBeInTheDocument();
    expect(screen.getByText(/Du får ikke lenger e-post om nye annonser for «Duplo til Ida»/)).toBeInTheDocument();
    expect(calls(fetch, "POST", "/api/saved-searches/unsubscribe")).toEqual([{ token: "abc.def" }]);
    expect(screen.getByRole("link", { name: "Se lagrede søk" })).toHaveAttribute("href", "/lagrede-sok");
  });

  it("shows the server's reason when the link is refused, and needs a token", async () => {
    api((url) =>
      url.pathname === "/api/saved-searches/unsubscribe"
        ? jsonResponse(errorBody("INVALID_CODE", SAVED_SEARCH_TEXTS.linkExpired), 400)
        : undefined,
    );
    const { unmount } = renderRoutes(routes, { path: "/lagrede-sok/avmeld?token=gammel", seed: { session: null } });
    expect(await screen.findByRole("heading", { name: "Kunne ikke slå av varselet" })).toBeInTheDocument();
    expect(screen.getByText(SAVED_SEARCH_TEXTS.linkExpired)).toBeInTheDocument();
    unmount();

    const fetch = api();
    renderRoutes(routes, { path: "/lagrede-sok/avmeld", seed: { session: null } });
    expect(await screen.findByText(SAVED_SEARCH_TEXTS.linkInvalid)).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe("the account menu's badge", () => {
  it("counts saved searches with new matches on the account button and beside 'Lagrede søk'", async () => {
    api((url) => (url.pathname === "/api/saved-searches/badge" ? jsonResponse(savedSearchBadgeBody(2)) : undefined));
    renderWithProviders(<Header />, { seed: { session: sessionFor() } });
    const button = await screen.findByRole("button", { name: "Min konto, 2 lagrede søk med nye treff" });
    expect(button).toHaveTextContent("2");
    await userEvent.click(button);
    expect(await screen.findByRole("menuitem", { name: "Lagrede søk, 2 med nye treff" })).toHaveAttribute("href", "/lagrede-sok");
  });

  it("shows no badge without new matches", async () => {
    const fetch = api((url) => (url.pathname === "/api/saved-searches/badge" ? jsonResponse(savedSearchBadgeBody(0)) : undefined));
    renderWithProviders(<Header />, { seed: { session: sessionFor() } });
    await waitFor(() => expect(calls(fetch, "GET", "/api/saved-searches/badge")).toHaveLength(1));
    expect(screen.getByRole("button", { name: "Min konto" })).toHaveTextContent("");
  });
});
