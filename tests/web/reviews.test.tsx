// Reviews in the SPA (decisions 070–071): the review form, the prompt of a completed deal
// (blind until both wrote), the public profile /bruker/{id} and the seller card's average.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { DealReviewPanel } from "../../web/components/reviews/DealReviewPanel";
import { ConversationReviews } from "../../web/routes/chat/ConversationReviews";
import { PublicProfilePage } from "../../web/routes/profile/PublicProfilePage";
import {
  TEST_CONVERSATION_ID,
  TEST_DEAL_ID,
  TEST_SELLER_ID,
  completedTradesBody,
  dealReviewStateBody,
  publicProfileBody,
  reviewBody,
  tradeOffersPageBody,
} from "../factories/api";
import { TradeHistoryPage } from "../../web/routes/trades/TradeHistoryPage";
import { apiError, bodyOf, listingPage, method, mockApi, stubBrowserApis } from "./listingHelpers";
import { ListingByIdPage } from "../../web/routes/listing/ListingByIdPage";
import { jsonResponse, renderRoutes, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

const renderPanel = (state = dealReviewStateBody()) =>
  renderRoutes(
    [
      { path: "/chat/:id", element: <DealReviewPanel state={state} /> },
      { path: "/bruker/:id", element: <h1>Profil</h1> },
    ],
    {
      seed: { session: sessionFor("user") },
      path: "/chat/c",
    },
  );

describe("the review prompt and form", () => {
  it("asks for stars before sending, then sends the deal, the stars and the trimmed text", async () => {
    const fetch = mockApi((url, init) => {
      if (url === "/api/reviews" && method(init) === "POST") return jsonResponse(reviewBody(), 201);
    });
    renderPanel();
    expect(screen.getByText("Handelen er fullført. Hvordan gikk det med Ola Hansen?")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Gi vurdering" }));
    const dialog = await screen.findByRole("dialog", { name: "Gi Ola Hansen en vurdering" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Send vurdering" }));
    expect(within(dialog).getByText("Velg antall stjerner")).toBeInTheDocument();
    expect(fetch.mock.calls.filter(([url]) => String(url) === "/api/reviews")).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole("radio", { name: "4 av 5 stjerner – Bra" }));
    expect(within(dialog).getByText("Bra")).toBeInTheDocument();
    await userEvent.type(within(dialog).getByRole("textbox", { name: "Skriv noen ord (valgfritt)" }), "  Fint bytte!  ");
    await userEvent.click(within(dialog).getByRole("button", { name: "Send vurdering" }));
    await waitFor(() =>
      expect(toast.toastSuccess).toHaveBeenCalledWith(
        "Takk for vurderingen!",
        "Den vises når Ola Hansen også har gitt sin, eller når fristen er ute.",
      ),
    );
    const call = fetch.mock.calls.find(([url]) => String(url) === "/api/reviews")!;
    expect(bodyOf(call[1])).toEqual({ deal_kind: "trade", deal_id: TEST_DEAL_ID, rating: 4, text: "  Fint bytte!  " });
  });

  it("shows the server's refusal (already reviewed) in the error toast", async () => {
    mockApi((url, init) => {
      if (url === "/api/reviews" && method(init) === "POST")
        return apiError(409, "CONFLICT", "Du har allerede gitt en vurdering for denne handelen.");
    });
    renderPanel();
    await userEvent.click(screen.getByRole("button", { name: "Gi vurdering" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("radio", { name: /^5 av 5 stjerner/ }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Send vurdering" }));
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Feil", "Du har allerede gitt en vurdering for denne handelen.", {
        error: expect.anything(),
      }),
    );
  });

  it("after writing: my review, and the other's only once revealed", async () => {
    const mine = reviewBody({ rating: 5, text: "Supert" });
    const { unmount } = renderPanel(dealReviewStateBody({ can_review: false, my_review: mine }));
    expect(screen.getByText("Din vurdering av Ola Hansen:")).toBeInTheDocument();
    expect(screen.getByText(/^Vises når Ola Hansen også har gitt sin vurdering, eller senest/)).toBeInTheDocument();
    expect(screen.queryByText("Ola Hansens vurdering av deg:")).not.toBeInTheDocument();
    unmount();
    renderPanel(
      dealReviewStateBody({
        can_review: false,
        my_review: mine,
        other_has_reviewed: true,
        their_review: reviewBody({ rating: 3, text: "Litt sen" }),
      }),
    );
    expect(screen.getByText("Ola Hansens vurdering av deg:")).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "3 av 5 stjerner" })).toBeInTheDocument();
    expect(screen.getByText("«Litt sen»")).toBeInTheDocument();
  });

  it("names the other party in the genitive: an s, or an apostrophe after s, x or z", () => {
    const revealed = { can_review: false, my_review: reviewBody(), other_has_reviewed: true, their_review: reviewBody({ rating: 4 }) };
    const { unmount } = renderPanel(
      dealReviewStateBody({ ...revealed, other_user: { id: TEST_SELLER_ID, display_name: "Hans", deleted: false } }),
    );
    expect(screen.getByText("Hans' vurdering av deg:")).toBeInTheDocument();
    unmount();
    renderPanel(dealReviewStateBody(revealed));
    expect(screen.getByText("Ola Hansens vurdering av deg:")).toBeInTheDocument();
  });

  it("tells the user the other party has written, without showing it", () => {
    renderPanel(dealReviewStateBody({ other_has_reviewed: true }));
    expect(screen.getByText(/Ola Hansen har gitt deg en vurdering\. Gi din for å se den\./)).toBeInTheDocument();
  });
});

describe("the prompt in the chat", () => {
  const url = `/api/reviews/conversations/${TEST_CONVERSATION_ID}`;
  const renderInChat = () =>
    renderRoutes([{ path: "/chat/:id", element: <ConversationReviews conversationId={TEST_CONVERSATION_ID} /> }], {
      seed: { session: sessionFor("user") },
      path: `/chat/${TEST_CONVERSATION_ID}`,
    });

  it("while the user may still write: one line with the question and 'Gi vurdering'", async () => {
    mockApi((u) => (u === url ? jsonResponse([dealReviewStateBody({ other_has_reviewed: true })]) : undefined));
    renderInChat();
    const region = await screen.findByRole("region", { name: "Vurderinger" });
    expect(region).toHaveTextContent("Handelen er fullført. Hvordan gikk det med Ola Hansen?");
    expect(region).toHaveTextContent("Ola Hansen har gitt deg en vurdering. Gi din for å se den.");
    expect(
      within(region)
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual(["Gi vurdering"]);
  });

  it("once answered it collapses to a summary line that opens the reviews", async () => {
    const answered = dealReviewStateBody({
      can_review: false,
      my_review: reviewBody({ rating: 5, text: "Supert" }),
      other_has_reviewed: true,
      their_review: reviewBody({ rating: 3, text: "Litt sen" }),
    });
    mockApi((u) => (u === url ? jsonResponse([answered]) : undefined));
    renderInChat();
    const region = await screen.findByRole("region", { name: "Vurderinger" });
    const toggle = await within(region).findByRole("button", { expanded: false });
    expect(toggle).toHaveTextContent("Din vurdering");
    expect(toggle).toHaveTextContent("Ola Hansens");
    expect(within(region).getByText("«Litt sen»")).not.toBeVisible();
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(within(region).getByText("«Litt sen»")).toBeVisible();
    expect(within(region).getByText("Ola Hansens vurdering av deg:")).toBeVisible();
  });
});

describe("/bruker/{id}", () => {
  const renderProfile = (answer: Response) => {
    mockApi(
      (url) => (url.startsWith(`/api/users/${TEST_SELLER_ID}`) ? answer : undefined),
      (url) => (url === "/api/favourites/ids" ? jsonResponse([]) : undefined),
    );
    return renderRoutes(
      [
        { path: "/bruker/:id", element: <PublicProfilePage /> },
        { path: "/auth", element: <h1>Logg inn</h1> },
      ],
      {
        seed: { session: sessionFor("user") },
        path: `/bruker/${TEST_SELLER_ID}`,
      },
    );
  };

  it("shows the name, member since, the average, listings and reviews with a report button each", async () => {
    renderProfile(jsonResponse(publicProfileBody()));
    expect(await screen.findByRole("heading", { level: 1, name: "Ola Hansen" })).toBeInTheDocument();
    expect(screen.getByText("Medlem siden 5. mars 2024")).toBeInTheDocument();
    expect(screen.getByText("4,5 av 5")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Annonser (1)" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Vurderinger (2)" })).toBeInTheDocument();
    expect(screen.getByText("Rask og hyggelig handel.")).toBeInTheDocument();
    expect(screen.getByText("Kari Nordmann · Kjøper")).toBeInTheDocument();
    expect(screen.getByText("Ola Hansen · Selger")).toBeInTheDocument();
    // The signed-in test user wrote the first review: no report button for their own.
    expect(screen.getAllByRole("button", { name: "Rapporter vurdering" })).toHaveLength(1);
    await userEvent.click(screen.getByRole("button", { name: "Rapporter vurdering" }));
    expect(await screen.findByRole("dialog", { name: "Rapporter vurdering" })).toBeInTheDocument();
    expect(document.title).toBe("Ola Hansen | Lekebytte");
  });

  it("says so when there are no reviews yet", async () => {
    renderProfile(jsonResponse(publicProfileBody({ rating: { average: null, count: 0 }, reviews: [], listings: [], listing_count: 0 })));
    expect(await screen.findByText("Ingen vurderinger ennå")).toBeInTheDocument();
    expect(screen.getByText("Ola Hansen har ingen vurderinger ennå.")).toBeInTheDocument();
    expect(screen.getByText("Ingen aktive annonser akkurat nå.")).toBeInTheDocument();
  });

  it("shows the not-found page for an unknown or deleted user", async () => {
    renderProfile(apiError(404, "NOT_FOUND", "Fant ikke brukeren."));
    expect(await screen.findByRole("heading", { name: "404 - Siden finnes ikke" })).toBeInTheDocument();
  });
});

describe("the seller card", () => {
  it("shows the seller's average and count, linking to their profile", async () => {
    stubBrowserApis();
    const page = listingPage({
      seller: {
        user_id: TEST_SELLER_ID,
        display_name: "Ola Hansen",
        created_at: "2024-03-05T10:00:00Z",
        phone_verified: false,
        rating: { average: 4.5, count: 2 },
      },
    });
    mockApi((url) =>
      url === `/api/listings/${page.id}` ? jsonResponse(page) : url === "/api/favourites/ids" ? jsonResponse([]) : undefined,
    );
    renderRoutes([{ path: "/listing/:id", element: <ListingByIdPage /> }], { seed: { session: null }, path: `/listing/${page.id}` });
    const link = await screen.findByRole("link", { name: "4,5 av 5 (2 vurderinger)" });
    expect(link).toHaveAttribute("href", `/bruker/${TEST_SELLER_ID}`);
  });
});

describe("the trade history's 'Fullført'", () => {
  it("offers 'Gi vurdering' on a trade not yet reviewed and says so on one that is", async () => {
    const counts = { sent: 0, received: 0, completed: 2 };
    mockApi((url) => {
      if (url.startsWith("/api/trade-offers/history/completed")) {
        return jsonResponse(
          completedTradesBody(
            [{ id: TEST_DEAL_ID }, { reviewed_by_me: true, other_user: { id: TEST_SELLER_ID, display_name: "Per Post", deleted: false } }],
            counts,
          ),
        );
      }
      if (url.startsWith("/api/trade-offers/history/")) return jsonResponse(tradeOffersPageBody([], counts));
    });
    renderRoutes([{ path: "/trade-history", element: <TradeHistoryPage /> }], {
      seed: { session: sessionFor("user") },
      path: "/trade-history",
    });
    await userEvent.click(await screen.findByRole("tab", { name: "Fullført (2)" }));
    const [open, done] = await screen.findAllByRole("listitem");
    expect(done).toHaveTextContent("Du har gitt Per Post en vurdering.");
    expect(within(done).queryByRole("button", { name: "Gi vurdering" })).not.toBeInTheDocument();
    await userEvent.click(within(open).getByRole("button", { name: "Gi vurdering" }));
    expect(await screen.findByRole("dialog", { name: "Gi Ola Hansen en vurdering" })).toBeInTheDocument();
  });
});
