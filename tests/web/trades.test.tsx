// Trades in the SPA (docs/product.md "Trades", "States", "Error messages"):
// the proposal form, the buttons each party gets on a card, and the history's tabs.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { reviewKeys } from "../../web/api/reviews";
import { tradeKeys } from "../../web/api/trades";
import { TradeOfferCards } from "../../web/routes/chat/TradeOfferCards";
import { TradeHistoryPage } from "../../web/routes/trades/TradeHistoryPage";
import { TradeOfferPage } from "../../web/routes/trades/TradeOfferPage";
import { TradeStatusBadge } from "../../web/routes/trades/TradeParts";
import {
  TEST_CONVERSATION_ID,
  TEST_LISTING_ID,
  TEST_SELLER_ID,
  TEST_USER_ID,
  completedTradesBody,
  createTradeOfferBody,
  tradeListingBody,
  tradeOfferBody,
  tradeOffersPageBody,
  tradeProposalBody,
} from "../factories/api";
import { apiError, bodyOf, method, mockApi } from "./listingHelpers";
import { createTestQueryClient, jsonResponse, renderRoutes, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

const proposalPath = `/trade-offer/${TEST_LISTING_ID}`;
const renderProposal = () =>
  renderRoutes(
    [
      { path: "/trade-offer/:listingId", element: <TradeOfferPage /> },
      { path: "/chat/:id", element: <p>chat</p> },
      { path: "/", element: <p>forsiden</p> },
    ],
    { seed: { session: sessionFor("user") }, path: proposalPath },
  );

describe("/trade-offer/{listingId} 'Foreslå bytte'", () => {
  it("sends the chosen listing with the trimmed message, says 'Bytteforslag sendt!' and opens the chat", async () => {
    const fetch = mockApi((url, init) => {
      if (url === `/api/trade-offers/proposal/${TEST_LISTING_ID}`) return jsonResponse(tradeProposalBody(["Duplo båt", "Brio bil"]));
      if (url === "/api/trade-offers" && method(init) === "POST") return jsonResponse(createTradeOfferBody(), 201);
      return undefined;
    });
    const { router } = renderProposal();
    expect(await screen.findByRole("heading", { level: 1, name: "Foreslå bytte" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Du vil ha denne" })).toBeInTheDocument();
    const send = screen.getByRole("button", { name: "Send bytteforslag" });
    expect(send).toBeDisabled();
    const group = screen.getByRole("group", { name: "Velg hva du vil tilby i bytte" });
    await userEvent.click(within(group).getByRole("radio", { name: /Brio bil/ }));
    const field = screen.getByRole("textbox", { name: "Melding (valgfritt)" });
    expect(field).toHaveAttribute("placeholder", "Skriv en melding til selger...");
    await userEvent.type(field, "  Bytte?  ");
    expect(send).toBeEnabled();
    await userEvent.click(send);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/chat/${TEST_CONVERSATION_ID}`));
    const post = fetch.mock.calls.find(([url, init]) => url === "/api/trade-offers" && method(init) === "POST");
    expect(bodyOf(post?.[1])).toEqual({
      requested_listing_id: TEST_LISTING_ID,
      offered_listing_id: "44444444-4444-4444-8444-000000000001",
      message: "Bytte?",
    });
    expect(toast.toastSuccess).toHaveBeenCalledWith("Bytteforslag sendt!", "Selger vil få beskjed om ditt forslag");
  });

  it("an empty message is sent as null; a refusal says 'Kunne ikke sende bytteforslag' and the server's reason", async () => {
    const fetch = mockApi((url, init) => {
      if (url === `/api/trade-offers/proposal/${TEST_LISTING_ID}`) return jsonResponse(tradeProposalBody());
      if (url === "/api/trade-offers" && method(init) === "POST") return apiError(409, "CONFLICT", "Leken du tilbyr er ikke aktiv lenger.");
      return undefined;
    });
    renderProposal();
    await userEvent.click(await screen.findByRole("radio", { name: /Duplo båt/ }));
    await userEvent.type(screen.getByRole("textbox", { name: "Melding (valgfritt)" }), "   ");
    await userEvent.click(screen.getByRole("button", { name: "Send bytteforslag" }));
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke sende bytteforslag. Leken du tilbyr er ikke aktiv lenger.", {
        error: expect.anything(),
      }),
    );
    const post = fetch.mock.calls.find(([url, init]) => url === "/api/trade-offers" && method(init) === "POST");
    expect((bodyOf(post?.[1]) as { message: unknown }).message).toBeNull();
    expect(screen.getByRole("button", { name: "Send bytteforslag" })).toBeEnabled();
  });

  it("without own active listings: 'Ingen annonser å bytte med' and 'Legg ut annonse'", async () => {
    mockApi((url) => (url === `/api/trade-offers/proposal/${TEST_LISTING_ID}` ? jsonResponse(tradeProposalBody([])) : undefined));
    renderProposal();
    expect(await screen.findByRole("heading", { name: "Ingen annonser å bytte med" })).toBeInTheDocument();
    expect(screen.getByText("Du må ha aktive annonser for å kunne foreslå bytte")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Legg ut annonse" })).toHaveAttribute("href", "/create-listing");
    expect(screen.queryByRole("button", { name: "Send bytteforslag" })).not.toBeInTheDocument();
  });

  it("a missing listing: 'Annonse ikke funnet' with 'Tilbake til forsiden'; one's own: the spec's text", async () => {
    mockApi((url) => (url.startsWith("/api/trade-offers/proposal/") ? apiError(404, "NOT_FOUND", "Annonse ikke funnet") : undefined));
    renderProposal();
    expect(await screen.findByRole("heading", { name: "Annonse ikke funnet" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Tilbake til forsiden" })).toHaveAttribute("href", "/");
  });

  it("one's own listing says 'Du kan ikke foreslå bytte på din egen annonse'", async () => {
    mockApi((url) =>
      url.startsWith("/api/trade-offers/proposal/")
        ? apiError(403, "FORBIDDEN", "Du kan ikke foreslå bytte på din egen annonse")
        : undefined,
    );
    renderProposal();
    expect(await screen.findByText("Du kan ikke foreslå bytte på din egen annonse")).toBeInTheDocument();
  });

  it("any other failure: 'Kunne ikke hente annonse' and back to /", async () => {
    mockApi((url) => (url.startsWith("/api/trade-offers/proposal/") ? apiError(500, "INTERNAL", "Noe gikk galt") : undefined));
    const { router } = renderProposal();
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke hente annonse", expect.anything());
  });
});

describe("offer cards above the chat", () => {
  const cardsUrl = `/api/trade-offers/conversation/${TEST_CONVERSATION_ID}`;
  const renderCards = () =>
    renderRoutes([{ path: "/chat/:id", element: <TradeOfferCards conversationId={TEST_CONVERSATION_ID} myId={TEST_USER_ID} /> }], {
      seed: { session: sessionFor("user") },
      path: `/chat/${TEST_CONVERSATION_ID}`,
    });
  // The test user is the recipient: Ola Hansen offered.
  const received = (over: Parameters<typeof tradeOfferBody>[0] = {}) =>
    tradeOfferBody({ from_user_id: TEST_SELLER_ID, to_user_id: TEST_USER_ID, ...over });

  it("the recipient accepts: 'Bytteforslag akseptert!' / 'Dere kan nå avtale videre detaljer'", async () => {
    const fetch = mockApi((url, init) => {
      if (url === cardsUrl) return jsonResponse([received()]);
      if (url.endsWith("/accept") && method(init) === "POST")
        return jsonResponse(
          received({ status: "accepted", handover: { confirmed_by_me: false, confirmed_by_other: false, completed_at: null } }),
        );
      return undefined;
    });
    renderCards();
    const card = await screen.findByRole("article");
    expect(card).toHaveTextContent("Ola Hansen foreslo et bytte");
    expect(card).toHaveTextContent("Venter· 7d igjen");
    expect(card).toHaveTextContent("Vil du bytte?");
    expect(within(card).getByRole("button", { name: "Avslå" })).toBeInTheDocument();
    expect(card).not.toHaveTextContent("Venter på svar...");
    await userEvent.click(within(card).getByRole("button", { name: "Aksepter" }));
    await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Bytteforslag akseptert!", "Dere kan nå avtale videre detaljer"));
    expect(fetch.mock.calls.some(([url]) => url === "/api/trade-offers/55555555-5555-4555-8555-555555555555/accept")).toBe(true);
  });

  it("rejecting says 'Bytteforslag avslått'; a failure 'Kunne ikke oppdatere bytteforslag'", async () => {
    let fail = false;
    mockApi((url, init) => {
      if (url === cardsUrl) return jsonResponse([received()]);
      if (url.endsWith("/reject") && method(init) === "POST")
        return fail ? apiError(409, "CONFLICT", "Bytteforslaget har utløpt.") : jsonResponse(received({ status: "rejected" }));
      return undefined;
    });
    renderCards();
    const card = await screen.findByRole("article");
    fail = true;
    await userEvent.click(within(card).getByRole("button", { name: "Avslå" }));
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke oppdatere bytteforslag. Bytteforslaget har utløpt.", {
        error: expect.anything(),
      }),
    );
    fail = false;
    await userEvent.click(within(card).getByRole("button", { name: "Avslå" }));
    await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Bytteforslag avslått", undefined));
  });

  it("the sender sees 'Venter på svar...' and may withdraw, never accept", async () => {
    mockApi((url) =>
      url === cardsUrl ? jsonResponse([tradeOfferBody({ expires_at: new Date(Date.now() + 5 * 3_600_000).toISOString() })]) : undefined,
    );
    renderCards();
    const card = await screen.findByRole("article");
    expect(card).toHaveTextContent("Du foreslo et bytte");
    expect(card).toHaveTextContent("Venter på svar...");
    expect(card).toHaveTextContent("5t igjen");
    expect(within(card).queryByRole("button", { name: "Aksepter" })).not.toBeInTheDocument();
    expect(within(card).getByRole("button", { name: "Trekk tilbake" })).toBeInTheDocument();
  });

  it("an expired offer shows 'Utløpt' and no buttons but the one that opens it", async () => {
    mockApi((url) =>
      url === cardsUrl ? jsonResponse([received({ expires_at: new Date(Date.now() - 60_000).toISOString() })]) : undefined,
    );
    renderCards();
    const card = await screen.findByRole("article");
    expect(card).toHaveTextContent("Utløpt");
    expect(
      within(card)
        .getAllByRole("button")
        .map((b) => b.getAttribute("aria-expanded")),
    ).toEqual(["false"]);
    await userEvent.click(within(card).getByRole("button"));
    expect(
      within(card)
        .getAllByRole("button")
        .map((b) => b.getAttribute("aria-expanded")),
    ).toEqual(["true"]);
  });

  it("finished and refused offers shrink to one line that opens the card; offers in play keep their card and buttons", async () => {
    const updated = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    mockApi((url) =>
      url === cardsUrl
        ? jsonResponse([
            received({
              id: "rejected-1",
              status: "rejected",
              updated_at: updated(90),
              offered_listing: tradeListingBody({ title: "Walkie-talkie" }),
            }),
            received({
              id: "completed-1",
              status: "completed",
              updated_at: updated(10),
              handover: { confirmed_by_me: true, confirmed_by_other: true, completed_at: updated(10) },
            }),
            received({ id: "pending-1", offered_listing: tradeListingBody({ title: "Gravemaskin" }) }),
          ])
        : undefined,
    );
    renderCards();
    const cards = await screen.findAllByRole("article");
    // In play first, then the finished ones newest first.
    expect(cards.map((c) => c.getAttribute("aria-label"))).toEqual([
      "Bytteforslag: Gravemaskin mot Brio togbane",
      "Bytteforslag: Duplo båt mot Brio togbane",
      "Bytteforslag: Walkie-talkie mot Brio togbane",
    ]);
    const [pending, completed, rejected] = cards;
    expect(within(pending).getByRole("button", { name: "Aksepter" })).toBeVisible();
    for (const [card, label] of [
      [completed, "Fullført"],
      [rejected, "Avslått"],
    ] as const) {
      const toggle = within(card).getByRole("button");
      expect(toggle).toHaveAttribute("aria-expanded", "false");
      expect(toggle).toHaveTextContent(label);
      // The card's details are there but hidden until the line is opened.
      expect(within(card).getByText("Ola Hansen foreslo et bytte")).not.toBeVisible();
      await userEvent.click(toggle);
      expect(toggle).toHaveAttribute("aria-expanded", "true");
      expect(within(card).getByText("Ola Hansen foreslo et bytte")).toBeVisible();
    }
  });

  it("each state has its own badge colour, and only one", () => {
    const now = new Date();
    const states = [
      { status: "pending", expires_at: new Date(now.getTime() + 86_400_000 * 3).toISOString() },
      { status: "pending", expires_at: new Date(now.getTime() - 60_000).toISOString() },
      { status: "accepted" },
      { status: "rejected" },
      { status: "completed" },
      { status: "cancelled" },
    ] as const;
    const backgrounds = states.map((state) => {
      const { container, unmount } = renderRoutes(
        [{ path: "/", element: <TradeStatusBadge offer={{ expires_at: now.toISOString(), ...state }} now={now} /> }],
        { path: "/" },
      );
      const classes = [...container.querySelector("span")!.classList];
      unmount();
      const bg = classes.filter((c) => /^bg-/.test(c));
      expect(bg, classes.join(" ")).toHaveLength(1);
      return bg[0];
    });
    expect(new Set(backgrounds).size).toBe(states.length);
  });

  it("an accepted trade: 'Bekreft overlevering' until confirmed, then the wait for the other party", async () => {
    const handover = { confirmed_by_me: true, confirmed_by_other: false, completed_at: null };
    mockApi((url) => (url === cardsUrl ? jsonResponse([received({ status: "accepted", handover })]) : undefined));
    renderCards();
    const card = await screen.findByRole("article");
    expect(card).toHaveTextContent("Akseptert");
    expect(card).toHaveTextContent("Du har bekreftet overleveringen. Venter på at Ola Hansen bekrefter.");
    expect(within(card).queryByRole("button", { name: "Bekreft overlevering" })).not.toBeInTheDocument();
    expect(within(card).getByRole("button", { name: "Avbryt byttet" })).toBeInTheDocument();
  });

  it("the confirmation that completes the trade refreshes the review prompt at once, without waiting for the room's event", async () => {
    const accepted = received({ status: "accepted", handover: { confirmed_by_me: false, confirmed_by_other: true, completed_at: null } });
    const completed = received({
      status: "completed",
      handover: { confirmed_by_me: true, confirmed_by_other: true, completed_at: "2026-11-26T10:00:00.000Z" },
    });
    mockApi((url, init) => {
      if (url === cardsUrl) return jsonResponse([accepted]);
      if (url.endsWith("/confirm") && method(init) === "POST") return jsonResponse(completed);
      return undefined;
    });
    const { queryClient } = renderCards();
    queryClient.setQueryData(reviewKeys.conversation(TEST_CONVERSATION_ID), []);
    const card = await screen.findByRole("article");
    await userEvent.click(within(card).getByRole("button", { name: "Bekreft overlevering" }));
    await waitFor(() => expect(queryClient.getQueryState(reviewKeys.conversation(TEST_CONVERSATION_ID))?.isInvalidated).toBe(true));
  });

  it("a failed fetch shows no cards (fails silently)", async () => {
    mockApi((url) => (url === cardsUrl ? apiError(500, "INTERNAL", "Noe gikk galt") : undefined));
    const queryClient = createTestQueryClient({ session: sessionFor("user") });
    renderRoutes([{ path: "/chat/:id", element: <TradeOfferCards conversationId={TEST_CONVERSATION_ID} myId={TEST_USER_ID} /> }], {
      queryClient,
      path: `/chat/${TEST_CONVERSATION_ID}`,
    });
    await waitFor(() => expect(queryClient.getQueryState(tradeKeys.conversation(TEST_CONVERSATION_ID))?.status).toBe("error"));
    expect(screen.queryByRole("article")).not.toBeInTheDocument();
    expect(toast.toastError).not.toHaveBeenCalled();
  });
});

describe("/trade-history 'Byttehistorikk'", () => {
  const counts = { sent: 1, received: 0, completed: 1 };
  const renderHistory = () =>
    renderRoutes([{ path: "/trade-history", element: <TradeHistoryPage /> }], {
      seed: { session: sessionFor("user") },
      path: "/trade-history",
    });

  it("'Sendt (n)' first, then 'Mottatt' empty and 'Fullført' with 'Bytte med {name}', 'Din leke', 'Deres leke'", async () => {
    mockApi((url) => {
      if (url.startsWith("/api/trade-offers/history/sent")) return jsonResponse(tradeOffersPageBody([tradeOfferBody()], counts));
      if (url.startsWith("/api/trade-offers/history/received")) return jsonResponse(tradeOffersPageBody([], counts));
      if (url.startsWith("/api/trade-offers/history/completed")) return jsonResponse(completedTradesBody([{}], counts));
      return undefined;
    });
    renderHistory();
    expect(await screen.findByRole("tab", { name: "Sendt (1)", selected: true })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Mottatt (0)" })).toBeInTheDocument();
    const sent = await screen.findByRole("listitem");
    expect(sent).toHaveTextContent("Sendt til Ola Hansen");
    expect(sent).toHaveTextContent("Du tilbødDuplo båt");
    expect(sent).toHaveTextContent("Du ville haBrio togbane");
    expect(sent).toHaveTextContent("Vil du bytte?");
    await userEvent.click(screen.getByRole("tab", { name: "Mottatt (0)" }));
    expect(await screen.findByText("Ingen mottatte forslag")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("tab", { name: "Fullført (1)" }));
    const done = await screen.findByRole("listitem");
    expect(done).toHaveTextContent("Bytte med Ola Hansen");
    expect(done).toHaveTextContent("Din lekeDuplo båt");
    expect(done).toHaveTextContent("Deres lekeBrio togbane");
    expect(done).toHaveTextContent(/Fullført \d+\. \w+ \d{4}/);
  });

  it("loading 'Laster byttehistorikk...', empty 'Ingen sendte forslag', a failure 'Kunne ikke hente byttehistorikk'", async () => {
    mockApi((url) =>
      url.startsWith("/api/trade-offers/history/sent")
        ? jsonResponse(tradeOffersPageBody([], { sent: 0, received: 0, completed: 0 }))
        : undefined,
    );
    renderHistory();
    expect(screen.getByText("Laster byttehistorikk...")).toBeInTheDocument();
    expect(await screen.findByText("Ingen sendte forslag")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("tab", { name: "Fullført (0)" }));
    await waitFor(() => expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke hente byttehistorikk", expect.anything()));
    expect(screen.getByText("Kunne ikke hente byttehistorikk")).toBeInTheDocument();
  });
});
