import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { searchBody, type SearchBody as SearchResult } from "../factories/api";
import { SearchPage } from "../../web/routes/search/SearchPage";
import { allowConsoleError } from "./console";
import { jsonResponse, listing, mockFetch, renderRoutes } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

beforeEach(() => {
  toast.toastError.mockReset();
});

const routes = [{ path: "/search", Component: SearchPage }];

function result(count: number, total = count, capped = false): SearchResult {
  return searchBody(
    Array.from({ length: count }, () => listing()),
    total,
    capped,
  );
}

/** Answers /api/search with `answer(params)`; returns the searched query strings in order. */
function mockSearch(answer: (params: URLSearchParams) => SearchResult | Response = () => result(3)) {
  const fetch = mockFetch((url) => {
    const u = new URL(url, "http://localhost");
    if (u.pathname !== "/api/search") return jsonResponse({ error: { code: "NOT_FOUND", message: "?" } }, 404);
    const answered = answer(u.searchParams);
    return answered instanceof Response ? answered : jsonResponse(answered);
  });
  const searches = () =>
    fetch.mock.calls.map(([url]) => new URL(String(url), "http://localhost")).filter((u) => u.pathname === "/api/search");
  return { fetch, searches };
}

const filterButton = () => screen.getByRole("button", { name: /^Filter/ });

describe("/search: URL ↔ filters", () => {
  it("reads the filters from the URL, searches with them and shows chips, badge and count", async () => {
    const { searches } = mockSearch(() => result(2));
    renderRoutes(routes, { path: "/search?categories=lego,cars&min=100&max=500&trade=true" });

    expect(await screen.findByText("2 annonser")).toBeInTheDocument();
    const params = searches()[0].searchParams;
    expect(params.get("categories")).toBe("lego,biler");
    expect(params.get("min")).toBe("100");
    expect(params.get("max")).toBe("500");
    expect(params.get("trade")).toBe("true");
    expect(params.get("limit")).toBe("50");
    expect(params.get("offset")).toBe("0");

    for (const label of ["Lego", "Biler", "100–500 kr", "Åpen for bytte"]) {
      expect(screen.getByRole("button", { name: `Fjern filter ${label}` })).toBeInTheDocument();
    }
    expect(filterButton()).toHaveAccessibleName(/^Filter\s+4\s*aktive filtre$/);
    expect(screen.getAllByRole("article")).toHaveLength(2);
  });

  it("removing a chip updates the URL, the badge and the search", async () => {
    const { searches } = mockSearch();
    const { router } = renderRoutes(routes, { path: "/search?categories=lego,biler&trade=true" });
    await userEvent.click(await screen.findByRole("button", { name: "Fjern filter Lego" }));

    await waitFor(() => expect(router.state.location.search).toBe("?categories=biler&trade=true"));
    expect(screen.queryByRole("button", { name: "Fjern filter Lego" })).not.toBeInTheDocument();
    expect(filterButton()).toHaveAccessibleName(/^Filter\s+2\s*aktive filtre$/);
    await waitFor(() => expect(searches().at(-1)?.searchParams.get("categories")).toBe("biler"));

    await userEvent.click(screen.getByRole("button", { name: "Fjern alle filtre" }));
    await waitFor(() => expect(router.state.location.search).toBe(""));
    expect(filterButton()).toHaveAccessibleName(/^Filter\s*$/);
  });

  it("free-only shows no price chip and disables the price controls in the sheet", async () => {
    mockSearch();
    renderRoutes(routes, { path: "/search?free=true&min=100&max=400" });
    expect(await screen.findByRole("button", { name: "Fjern filter Kun gratis" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Fjern filter .*kr/ })).not.toBeInTheDocument();
    expect(filterButton()).toHaveAccessibleName(/^Filter\s+1\s*aktivt filter$/);

    await userEvent.click(filterButton());
    const sheet = await screen.findByRole("dialog", { name: "Filter" });
    const free = within(sheet).getByRole("checkbox", { name: "Kun gratis" });
    expect(free).toBeChecked();
    expect(within(sheet).getByLabelText("Fra (kr)")).toBeDisabled();
    expect(within(sheet).getByLabelText("Til (kr)")).toBeDisabled();
    for (const name of ["Minstepris", "Makspris"]) {
      const thumb = within(sheet).getByRole("slider", { name });
      expect(thumb).toHaveAttribute("aria-disabled", "true");
      expect(thumb).toHaveAttribute("data-disabled");
    }

    await userEvent.click(free);
    expect(within(sheet).getByLabelText("Fra (kr)")).toBeEnabled();
    expect(within(sheet).getByRole("slider", { name: "Minstepris" })).not.toHaveAttribute("aria-disabled");
  });

  it("the sheet applies its draft as one URL change: categories, condition, price and postal code", async () => {
    const { searches } = mockSearch((p) => (p.get("limit") === "1" ? result(1, 7) : result(3)));
    const { router } = renderRoutes(routes, { path: "/search?q=bil" });
    await screen.findByText("3 annonser");
    const before = router.state.location.key;

    await userEvent.click(filterButton());
    const sheet = await screen.findByRole("dialog", { name: "Filter" });
    expect(sheet.className).toMatch(/h-\[85vh\]/);
    await userEvent.click(within(sheet).getByRole("checkbox", { name: "Lego" }));
    await userEvent.click(within(sheet).getByRole("checkbox", { name: "Meget god" }));
    await userEvent.type(within(sheet).getByLabelText("Fra (kr)"), "200");
    await userEvent.type(within(sheet).getByLabelText("Til (kr)"), "1500");
    await userEvent.type(within(sheet).getByLabelText("Postnummer"), "05x62");
    // Nothing is applied while the sheet is open; the button previews the count.
    expect(router.state.location.key).toBe(before);
    const apply = await within(sheet).findByRole("button", { name: "Vis 7 annonser" }, { timeout: 2000 });
    expect(searches().some((u) => u.searchParams.get("limit") === "1" && u.searchParams.get("categories") === "lego")).toBe(true);

    await userEvent.click(apply);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(router.state.location.search).toBe("?q=bil&categories=lego&conditions=4&min=200&max=1500&postal=0562");
    expect(filterButton()).toHaveAccessibleName(/^Filter\s+4\s*aktive filtre$/);
    expect(screen.getByRole("button", { name: /^Fjern filter 200–1\s500 kr$/ })).toBeInTheDocument();
  });

  it.each([
    { min: "-50", max: "", field: "Fra (kr)", message: "Fra-pris kan ikke være under 0 kr." },
    { min: "", max: "99,999", field: "Til (kr)", message: "Skriv til-prisen i hele kroner, bare med sifre." },
    { min: "", max: "99 999", field: "Til (kr)", message: /^Til-pris kan være høyst 10\s000 kr\. La feltet stå tomt for alle priser\.$/ },
    { min: "20000", max: "", field: "Fra (kr)", message: /^Fra-pris kan være høyst 10\s000 kr\.$/ },
    { min: "500", max: "200", field: "Til (kr)", message: "Til-pris må være minst like høy som fra-pris." },
  ])("price $min–$max: '$message' under the box, and nothing is applied until it is fixed", async ({ min, max, field, message }) => {
    mockSearch();
    const { router } = renderRoutes(routes, { path: "/search?q=bil" });
    await userEvent.click(await screen.findByRole("button", { name: /^Filter/ }));
    const sheet = await screen.findByRole("dialog", { name: "Filter" });
    if (min) await userEvent.type(within(sheet).getByLabelText("Fra (kr)"), min);
    if (max) await userEvent.type(within(sheet).getByLabelText("Til (kr)"), max);
    await userEvent.click(within(sheet).getByRole("button", { name: /^Vis / }));
    const box = within(sheet).getByLabelText(field);
    expect(box).toHaveAttribute("aria-invalid", "true");
    expect(box).toHaveAccessibleDescription(message);
    expect(box).toHaveFocus();
    expect(screen.getByRole("dialog", { name: "Filter" })).toBeInTheDocument();
    expect(router.state.location.search).toBe("?q=bil");

    // Fixed: the message goes and the sheet applies.
    await userEvent.clear(within(sheet).getByLabelText("Fra (kr)"));
    await userEvent.clear(within(sheet).getByLabelText("Til (kr)"));
    await userEvent.type(within(sheet).getByLabelText("Fra (kr)"), "100");
    await userEvent.type(within(sheet).getByLabelText("Til (kr)"), "300");
    expect(within(sheet).getByLabelText(field)).not.toHaveAttribute("aria-invalid");
    await userEvent.click(within(sheet).getByRole("button", { name: /^Vis / }));
    await waitFor(() => expect(router.state.location.search).toBe("?q=bil&min=100&max=300"));
  });

  it("an empty min means 0 and an empty max means 10000 (no bound)", async () => {
    mockSearch();
    const { router } = renderRoutes(routes, { path: "/search?min=100&max=400" });
    await userEvent.click(await screen.findByRole("button", { name: /^Filter/ }));
    const sheet = await screen.findByRole("dialog", { name: "Filter" });
    expect(within(sheet).getByRole("slider", { name: "Minstepris" })).toHaveAttribute("aria-valuenow", "100");
    await userEvent.clear(within(sheet).getByLabelText("Fra (kr)"));
    await userEvent.clear(within(sheet).getByLabelText("Til (kr)"));
    expect(within(sheet).getByRole("slider", { name: "Minstepris" })).toHaveAttribute("aria-valuenow", "0");
    expect(within(sheet).getByRole("slider", { name: "Makspris" })).toHaveAttribute("aria-valuenow", "10000");
    await userEvent.click(within(sheet).getByRole("button", { name: /^Vis / }));
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("closing the sheet without applying keeps the filters as they were", async () => {
    mockSearch();
    const { router } = renderRoutes(routes, { path: "/search?categories=lego" });
    await userEvent.click(await screen.findByRole("button", { name: /^Filter/ }));
    const sheet = await screen.findByRole("dialog", { name: "Filter" });
    await userEvent.click(within(sheet).getByRole("checkbox", { name: "Dukker" }));
    await userEvent.click(within(sheet).getByRole("button", { name: "Lukk" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(router.state.location.search).toBe("?categories=lego");
  });

  it("sort goes to the URL", async () => {
    mockSearch();
    const { router } = renderRoutes(routes, { path: "/search?q=lego" });
    const sort = await screen.findByLabelText("Sorter");
    expect(sort).toHaveValue("relevance");
    expect(
      within(sort)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["Relevans", "Nyeste", "Pris lav–høy", "Pris høy–lav"]);
    await userEvent.selectOptions(sort, "price_asc");
    await waitFor(() => expect(router.state.location.search).toBe("?q=lego&sort=price_asc"));
  });
});

describe("/search: text, history and results", () => {
  it("debounces the text 300 ms and searches once, not per keystroke", async () => {
    const { searches } = mockSearch();
    const { router } = renderRoutes(routes, { path: "/search" });
    const box = await screen.findByRole("searchbox", { name: "Søk i annonser" });
    expect(box).toHaveFocus();
    await userEvent.type(box, "duplo");
    expect(router.state.location.search).toBe("");
    await waitFor(() => expect(router.state.location.search).toBe("?q=duplo"), { timeout: 1000 });
    await waitFor(() => expect(searches().at(-1)?.searchParams.get("q")).toBe("duplo"));
    expect(searches().filter((u) => u.searchParams.has("q"))).toHaveLength(1);
  });

  it("a letter typed while the debounced search is on its way stays in the box and is searched for", async () => {
    const { searches } = mockSearch();
    const { router } = renderRoutes(routes, { path: "/search" });
    const box = await screen.findByRole("searchbox", { name: "Søk i annonser" });
    vi.useFakeTimers();
    try {
      fireEvent.change(box, { target: { value: "d" } });
      // The next key lands after the debounce has navigated to ?q=d but before the page has rendered
      // that address (a phone busy with the first screen): the address then lags the box.
      act(() => {
        vi.advanceTimersByTime(300);
        fireEvent.change(box, { target: { value: "du" } });
      });
      await act(async () => {
        await vi.advanceTimersByTimeAsync(300);
      });
    } finally {
      vi.useRealTimers();
    }
    expect(box).toHaveValue("du");
    await waitFor(() => expect(router.state.location.search).toBe("?q=du"));
    await waitFor(() => expect(searches().at(-1)?.searchParams.get("q")).toBe("du"));
    // Back and Forward still show their own query.
    await act(() => router.navigate(-1));
    expect(screen.getByRole("searchbox")).toHaveValue("");
    await act(() => router.navigate(1));
    expect(screen.getByRole("searchbox")).toHaveValue("du");
  });

  it("back and forward restore the text, the chips and the results", async () => {
    mockSearch((p) => result(p.get("categories") === "lego" ? 1 : 5));
    const { router } = renderRoutes(routes, { path: "/search?q=bil" });
    expect(await screen.findByText("5 annonser")).toBeInTheDocument();
    await act(() => router.navigate("/search?q=lego&categories=lego"));
    expect(await screen.findByText("1 annonse")).toBeInTheDocument();
    expect(screen.getByRole("searchbox")).toHaveValue("lego");

    await act(() => router.navigate(-1));
    expect(await screen.findByText("5 annonser")).toBeInTheDocument();
    expect(screen.getByRole("searchbox")).toHaveValue("bil");
    expect(screen.queryByRole("button", { name: "Fjern filter Lego" })).not.toBeInTheDocument();

    await act(() => router.navigate(1));
    expect(await screen.findByText("1 annonse")).toBeInTheDocument();
    expect(screen.getByRole("searchbox")).toHaveValue("lego");
    expect(screen.getByRole("button", { name: "Fjern filter Lego" })).toBeInTheDocument();
  });

  it("shows 'Ingen annonser funnet' when nothing matches", async () => {
    mockSearch(() => result(0));
    renderRoutes(routes, { path: "/search?q=zzz" });
    expect(await screen.findByText("Ingen annonser funnet")).toBeInTheDocument();
    expect(screen.getByText("0 annonser")).toBeInTheDocument();
  });

  it("offers 'Mente du …?' as a link to the corrected search when the API suggests one", async () => {
    const { searches } = mockSearch((p) => ({
      ...result(p.get("q") === "lgeo" ? 2 : 3),
      suggestion: p.get("q") === "lgeo" ? "lego" : null,
    }));
    renderRoutes(routes, { path: "/search?q=lgeo&categories=lego" });
    const link = await screen.findByRole("link", { name: "lego" });
    expect(link.closest("p")).toHaveTextContent("Mente du lego?");
    await userEvent.click(link);
    await waitFor(() => expect(searches().at(-1)?.searchParams.get("q")).toBe("lego"));
    // The filters stay; the corrected search has no suggestion.
    expect(searches().at(-1)?.searchParams.get("categories")).toBe("lego");
    await waitFor(() => expect(screen.queryByText(/Mente du/)).not.toBeInTheDocument());
  });

  it("'Vis flere' loads the next 50 while more remain", async () => {
    const { searches } = mockSearch((p) => (p.get("offset") === "0" ? result(50, 60) : result(10, 60)));
    renderRoutes(routes, { path: "/search" });
    expect(await screen.findByText("60 annonser")).toBeInTheDocument();
    expect(screen.getAllByRole("article")).toHaveLength(50);
    await userEvent.click(screen.getByRole("button", { name: "Vis flere" }));
    await waitFor(() => expect(screen.getAllByRole("article")).toHaveLength(60));
    expect(searches().at(-1)?.searchParams.get("offset")).toBe("50");
    expect(screen.queryByRole("button", { name: "Vis flere" })).not.toBeInTheDocument();
  });

  it("a capped total reads 'Over 1 000 annonser' and paging goes on past it", async () => {
    mockSearch((p) => (p.get("limit") === "1" ? result(1, 1000, true) : result(50, 1000, true)));
    renderRoutes(routes, { path: "/search?q=lego" });
    expect(await screen.findByText(/^Over 1\s000 annonser$/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Vis flere" })).toBeInTheDocument();
    await userEvent.click(filterButton());
    expect(await screen.findByRole("button", { name: /^Vis over 1\s000 annonser$/ })).toBeInTheDocument();
  });

  it("an estimated total reads 'Ca. 560 annonser' and paging goes on while pages are full", async () => {
    mockSearch((p) => (p.get("limit") === "1" ? result(1, 560, true) : result(50, 560, true)));
    renderRoutes(routes, { path: "/search?q=traktor&postal=0150" });
    expect(await screen.findByText("Ca. 560 annonser")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Vis flere" })).toBeInTheDocument();
    await userEvent.click(filterButton());
    expect(await screen.findByRole("button", { name: "Vis ca. 560 annonser" })).toBeInTheDocument();
  });

  it("a failed search gives the 'Kunne ikke søke i annonser' toast", async () => {
    const errors = allowConsoleError();
    mockSearch(() => jsonResponse({ error: { code: "INTERNAL", message: "Noe gikk galt." } }, 500));
    renderRoutes(routes, { path: "/search?q=lego" });
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke søke i annonser", { id: "search-error", error: expect.anything() }),
    );
    expect(await screen.findByRole("button", { name: "Prøv igjen" })).toBeInTheDocument();
    expect(errors.calls().length).toBeGreaterThan(0);
  });

  it("a search over the per-address limit (429) gives the server's 'For mange forsøk' in the toast", async () => {
    const errors = allowConsoleError();
    mockSearch(() => jsonResponse({ error: { code: "RATE_LIMITED", message: "For mange forsøk. Vent litt og prøv igjen." } }, 429));
    renderRoutes(routes, { path: "/search?q=lego" });
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Feil", "For mange forsøk. Vent litt og prøv igjen.", {
        id: "search-error",
        error: expect.anything(),
      }),
    );
    expect(toast.toastError).not.toHaveBeenCalledWith("Feil", "Kunne ikke søke i annonser", expect.anything());
    expect(await screen.findByRole("button", { name: "Prøv igjen" })).toBeInTheDocument();
    expect(errors.calls().length).toBeGreaterThan(0);
  });
});
