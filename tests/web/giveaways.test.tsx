// The give-away queue in the web (decision 075): "Jeg vil ha den" with its message
// dialog, the taker's own place, the giver's queue panel (in order, "Første i køen", "Reserver",
// "Frigi", "Marker som gitt bort"), the "Reservert" badge on cards and "Mine køplasser".
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Session } from "../../web/api/auth";
import { ListingCard } from "../../web/components/ListingCard";
import { ListingByIdPage } from "../../web/routes/listing/ListingByIdPage";
import { resetPreloadedListing } from "../../web/routes/listing/preloaded";
import { GiveawayPlacesPage } from "../../web/routes/giveaways/GiveawayPlacesPage";
import {
  TEST_CONVERSATION_ID,
  giveawayMineBody,
  giveawayPlaceBody,
  giveawayQueueEntryBody,
  giveawayViewBody,
  type GiveawayViewBody,
} from "../factories/api";
import { bodyOf, listingPage, method, mockApi, ME, stubBrowserApis, type Route } from "./listingHelpers";
import { jsonResponse, listing, renderRoutes, renderWithProviders, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

const routes = [
  { path: "/listing/:id", element: <ListingByIdPage /> },
  { path: "/auth", element: <h1>Logg inn</h1> },
  { path: "/chat/:id", element: <h1>Samtale</h1> },
];

/** A free listing's page with the queue endpoint answering `view()` (it may change between calls). */
function renderFree(session: Session | null, view: () => GiveawayViewBody, ownerId?: string, ...extra: Route[]) {
  const page = listingPage({ is_free: true, price: null, status: "active", ...(ownerId ? { user_id: ownerId } : {}) });
  const fetch = mockApi(...extra, (url) => {
    if (url === `/api/listings/${page.id}`) return jsonResponse(page);
    if (url === "/api/favourites/ids") return jsonResponse([]);
    if (url === `/api/giveaways/listings/${page.id}`) return jsonResponse(view());
  });
  const user = userEvent.setup();
  return { user, fetch, page, ...renderRoutes(routes, { seed: { session }, path: `/listing/${page.id}` }) };
}

const posts = (fetch: ReturnType<typeof mockApi>, path: string) =>
  fetch.mock.calls.filter(([url, init]) => url === path && method(init) === "POST").map(([, init]) => bodyOf(init));

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
  stubBrowserApis();
  resetPreloadedListing();
});

describe("the taker's side", () => {
  it("a visitor who taps 'Jeg vil ha den' is asked to sign in", async () => {
    const { user, router } = renderFree(null, () => giveawayViewBody({ waiting_count: 2 }));
    await user.click(await screen.findByRole("button", { name: "Jeg vil ha den" }, { timeout: 5_000 }));
    expect(toast.toastError).toHaveBeenCalledWith("Logg inn påkrevd", "Du må være logget inn for å stå i kø", { id: "login-required" });
    expect(router.state.location.pathname).toBe("/auth");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("joins with a short message, then shows the place and 'Forlat køen'", async () => {
    let view = giveawayViewBody({ waiting_count: 1 });
    const { user, fetch, page } = renderFree(
      sessionFor("user"),
      () => view,
      undefined,
      (url, init) => {
        if (url.endsWith("/queue") && method(init) === "POST") {
          view = giveawayViewBody({ waiting_count: 2, mine: giveawayMineBody({ position: 2, message: "Til barnehagen" }) });
          return jsonResponse(view, 201);
        }
      },
    );
    expect(await screen.findByText("1 person i køen", {}, { timeout: 5_000 })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Jeg vil ha den" }));
    const dialog = await screen.findByRole("dialog", { name: "Jeg vil ha den" });
    await user.click(within(dialog).getByRole("button", { name: "Still meg i køen" }));
    expect(within(dialog).getByRole("alert")).toHaveTextContent("Skriv en kort melding til giveren");
    expect(posts(fetch, `/api/giveaways/listings/${page.id}/queue`)).toEqual([]);
    await user.type(within(dialog).getByLabelText("Melding til giveren"), "  Til barnehagen  ");
    await user.click(within(dialog).getByRole("button", { name: "Still meg i køen" }));
    await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Du står i køen", "Du er nr. 2 i køen"));
    expect(posts(fetch, `/api/giveaways/listings/${page.id}/queue`)).toEqual([{ message: "Til barnehagen" }]);
    expect(await screen.findByText("Du er nr. 2 i køen")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Jeg vil ha den" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Forlat køen" })).toBeInTheDocument();
  });

  it("shows the server's reason when joining is refused", async () => {
    const { user } = renderFree(
      sessionFor("user"),
      () => giveawayViewBody(),
      undefined,
      (url, init) => {
        if (url.endsWith("/queue") && method(init) === "POST")
          return jsonResponse({ error: { code: "CONFLICT", message: "Leken er allerede gitt bort." } }, 409);
      },
    );
    await user.click(await screen.findByRole("button", { name: "Jeg vil ha den" }, { timeout: 5_000 }));
    const dialog = await screen.findByRole("dialog");
    await user.type(within(dialog).getByLabelText("Melding til giveren"), "Kan hente");
    await user.click(within(dialog).getByRole("button", { name: "Still meg i køen" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Leken er allerede gitt bort.");
  });

  it("a reserved taker sees 'Reservert for deg' with the chat, and can leave", async () => {
    let view = giveawayViewBody({
      reserved: true,
      mine: giveawayMineBody({ status: "reserved", position: null, conversation_id: TEST_CONVERSATION_ID }),
    });
    const { user, fetch, page } = renderFree(
      sessionFor("user"),
      () => view,
      undefined,
      (url, init) => {
        if (url.endsWith("/leave") && method(init) === "POST") {
          view = giveawayViewBody({ mine: giveawayMineBody({ status: "withdrawn", position: null }) });
          return jsonResponse(view);
        }
      },
    );
    expect(await screen.findByText("Reservert for deg. Avtal hentingen i samtalen.", {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Åpne samtalen" })).toHaveAttribute("href", `/chat/${TEST_CONVERSATION_ID}`);
    await user.click(screen.getByRole("button", { name: "Forlat køen" }));
    await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Du har forlatt køen"));
    expect(posts(fetch, `/api/giveaways/listings/${page.id}/leave`)).toHaveLength(1);
    expect(await screen.findByRole("button", { name: "Jeg vil ha den" })).toBeInTheDocument();
  });

  it("someone the toy went past is told so, with no button", async () => {
    renderFree(sessionFor("user"), () => giveawayViewBody({ mine: giveawayMineBody({ status: "passed", position: null }) }));
    expect(await screen.findByText("Leken er gitt bort til en annen.", {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Jeg vil ha den" })).not.toBeInTheDocument();
  });
});

describe("the giver's queue panel", () => {
  const first = giveawayQueueEntryBody({ id: "aaaaaaaa-0000-4000-8000-000000000001", display_name: "Anna", message: "Til barnehagen" });
  const second = giveawayQueueEntryBody({
    id: "aaaaaaaa-0000-4000-8000-000000000002",
    display_name: "Bo",
    message: "Sønnen min elsker brannbiler",
  });

  it("lists the queue in order with the messages and says who is 'Første i køen' as text; 'Reserver' reserves", async () => {
    const view = giveawayViewBody({ waiting_count: 2, queue: [first, second] });
    const { user, fetch, page } = renderFree(
      sessionFor("user"),
      () => view,
      ME.id,
      (url, init) => {
        if (url.endsWith("/reserve") && method(init) === "POST") return jsonResponse(view);
      },
    );
    const panel = await screen.findByRole("region", { name: "Gi bort-kø (2)" }, { timeout: 5_000 });
    const rows = within(within(panel).getByRole("list", { name: "Køen" })).getAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^1\. Anna.*Til barnehagen$/),
      expect.stringMatching(/^2\. Bo.*Sønnen min elsker brannbiler$/),
    ]);
    // Who is next is a status line, not a control; the first row's "Reserver" is the action.
    const next = within(panel).getByText((_, el) => el?.tagName === "P" && el.textContent === "Første i køen: Anna");
    expect(next.closest("button, a, [role=button]")).toBeNull();
    expect(within(panel).queryByRole("button", { name: /^Første i køen/ })).not.toBeInTheDocument();
    await user.click(within(rows[0]).getByRole("button", { name: "Reserver for Anna" }));
    await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Reservert for Anna"));
    await user.click(within(rows[1]).getByRole("button", { name: "Reserver for Bo" }));
    await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Reservert for Bo"));
    expect(posts(fetch, `/api/giveaways/listings/${page.id}/reserve`)).toEqual([{ entry_id: first.id }, { entry_id: second.id }]);
    // The time beside a name is never broken in two ("Akkurat / nå").
    for (const row of rows) expect(row.querySelector("time")?.parentElement).toHaveClass("whitespace-nowrap");
    // The taker's button is not the owner's.
    expect(screen.queryByRole("button", { name: "Jeg vil ha den" })).not.toBeInTheDocument();
  });

  it("while reserved: 'Reservert for {navn}', the chat, 'Frigi', and 'Marker som gitt bort' after one more question", async () => {
    const reserved = { ...second, status: "reserved" as const, conversation_id: TEST_CONVERSATION_ID };
    const view = giveawayViewBody({ waiting_count: 1, reserved: true, queue: [reserved, first] });
    const { user, fetch, page } = renderFree(
      sessionFor("user"),
      () => view,
      ME.id,
      (url, init) => {
        if ((url.endsWith("/release") || url.endsWith("/give")) && method(init) === "POST") return jsonResponse(view);
      },
    );
    const panel = await screen.findByRole("region", { name: "Gi bort-kø (1)" }, { timeout: 5_000 });
    expect(within(panel).getByText("Reservert for Bo")).toBeInTheDocument();
    expect(within(panel).getByRole("link", { name: "Åpne samtalen" })).toHaveAttribute("href", `/chat/${TEST_CONVERSATION_ID}`);
    expect(within(panel).queryByText(/^Første i køen/)).not.toBeInTheDocument();
    expect(within(panel).queryByRole("button", { name: "Reserver for Anna" })).not.toBeInTheDocument();
    await user.click(within(panel).getByRole("button", { name: "Frigi" }));
    await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Reservasjonen er frigitt"));
    await user.click(within(panel).getByRole("button", { name: "Marker som gitt bort" }));
    expect(posts(fetch, `/api/giveaways/listings/${page.id}/give`)).toEqual([]);
    const confirm = within(panel).getByRole("group", { name: "Bekreft" });
    expect(confirm).toHaveTextContent("Gi leken til Bo? De andre i køen får beskjed.");
    await user.click(within(confirm).getByRole("button", { name: "Ja, gitt bort" }));
    await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Leken er gitt bort"));
    expect(posts(fetch, `/api/giveaways/listings/${page.id}/give`)).toHaveLength(1);
    expect(posts(fetch, `/api/giveaways/listings/${page.id}/release`)).toHaveLength(1);
  });

  it("an empty queue says so; a refused move shows the server's reason", async () => {
    const { user } = renderFree(
      sessionFor("user"),
      () => giveawayViewBody({ waiting_count: 1, queue: [first] }),
      ME.id,
      (url, init) => {
        if (url.endsWith("/reserve") && method(init) === "POST")
          return jsonResponse({ error: { code: "CONFLICT", message: "Personen står ikke lenger i køen." } }, 409);
      },
    );
    await user.click(await screen.findByRole("button", { name: "Reserver for Anna" }, { timeout: 5_000 }));
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Feil", "Personen står ikke lenger i køen.", { error: expect.anything() }),
    );
  });

  it("says when nobody has queued yet", async () => {
    renderFree(sessionFor("user"), () => giveawayViewBody({ queue: [] }), ME.id);
    expect(await screen.findByText("Ingen i køen ennå.", {}, { timeout: 5_000 })).toBeInTheDocument();
  });
});

describe("the 'Reservert' badge", () => {
  it("shows on a reserved listing's card and not on an active one", () => {
    const reserved = renderWithProviders(<ListingCard listing={listing({ status: "reserved", is_free: true, price: null })} />);
    expect(screen.getByText("Reservert")).toBeInTheDocument();
    reserved.unmount();
    renderWithProviders(<ListingCard listing={listing({ status: "active" })} />);
    expect(screen.queryByText("Reservert")).not.toBeInTheDocument();
  });
});

describe("Mine køplasser", () => {
  it("lists the places with their state, marks new ones and then sees them", async () => {
    const fetch = mockApi((url, init) => {
      if (url === "/api/giveaways/mine") {
        return jsonResponse([
          giveawayPlaceBody({
            status: "passed",
            position: null,
            unseen: true,
            listing: { id: "l1", title: "Sparkesykkel", seo_slug: "sparkesykkel-l1", images: [], public: false },
          }),
          giveawayPlaceBody({ status: "waiting", position: 3 }),
        ]);
      }
      if (url === "/api/giveaways/mine/seen" && method(init) === "POST") return new Response(null, { status: 204 });
      if (url === "/api/giveaways/mine/unseen") return jsonResponse({ count: 0 });
    });
    renderWithProviders(<GiveawayPlacesPage />, { seed: { session: sessionFor("user") } });
    const items = await screen.findAllByRole("listitem");
    expect(items[0]).toHaveTextContent("SparkesykkelNyLeken er gitt bort til en annen.");
    expect(within(items[0]).queryByRole("link")).not.toBeInTheDocument();
    expect(items[1]).toHaveTextContent("Du er nr. 3 i køen");
    expect(within(items[1]).getByRole("link", { name: "Duplo brannstasjon" })).toHaveAttribute(
      "href",
      "/annonse/duplo-brannstasjon-333333",
    );
    await waitFor(() =>
      expect(fetch.mock.calls.some(([url, init]) => url === "/api/giveaways/mine/seen" && method(init) === "POST")).toBe(true),
    );
  });
});
