// The chat page (docs/product.md "Messages and chat", "Validation", "Error messages") with a fake socket: header (and its
// listing state, live), day groups, sending with Enter and "Sender...", the HTTP fallback, errors, read marking, the connecting state.
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { SYSTEM_USER_ID } from "../../domain/chat";
import { ChatPage } from "../../web/routes/chat/ChatPage";
import {
  TEST_CONVERSATION_ID,
  TEST_LISTING_ID,
  TEST_SELLER_ID,
  chatMessageBody,
  conversationDetailBody,
  markReadBody,
  messagePageBody,
  tradeOfferBody,
  TEST_USER_ID,
  type ChatMessageBody,
  type ConversationDetailBody,
  type MessagePageBody,
} from "../factories/api";
import { FakeWebSocket } from "./fakeWebSocket";
import { apiError, bodyOf, method, mockApi, type Route } from "./listingHelpers";
import { jsonResponse, renderRoutes, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

const ME = sessionFor("user").user.id;
const OTHER = TEST_SELLER_ID;
const CONV = TEST_CONVERSATION_ID;

/** The chat header: the test user is the buyer, talking to Ola Hansen about "Brio togbane" (350 kr). */
const conversation = conversationDetailBody;

let seq = 0;
/** Messages numbered from 1 in each test, from the other party unless told. */
function msg(overrides: Partial<ChatMessageBody> = {}): ChatMessageBody {
  seq += 1;
  return chatMessageBody({ seq, content: `Melding ${seq}`, ...overrides });
}

const routes = [
  { path: "/chat/:conversationId", element: <ChatPage /> },
  { path: "/messages", element: <h1>Innboks</h1> },
  { path: "/listing/:id", element: <h1>Annonse</h1> },
];

function renderChat(options: { conv?: ConversationDetailBody; page?: MessagePageBody; routes?: Route[] } = {}) {
  const conv = options.conv ?? conversation();
  const page = options.page ?? messagePageBody();
  const fetch = mockApi(...(options.routes ?? []), (url, init) => {
    if (url === `/api/conversations/${CONV}` && method(init) === "GET") return jsonResponse(conv);
    if (url === `/api/conversations/${CONV}/messages` && method(init) === "GET") return jsonResponse(page);
    if (url === `/api/conversations/${CONV}/read`) return jsonResponse(markReadBody());
  });
  const user = userEvent.setup();
  return { fetch, user, ...renderRoutes(routes, { seed: { session: sessionFor("user") }, path: `/chat/${CONV}` }) };
}

/** Waits for the chat's socket, opens it and completes the catch-up. */
async function connect(lastSeq = 0): Promise<FakeWebSocket> {
  await waitFor(() => expect(FakeWebSocket.instances.some((w) => w.url.includes(`/api/conversations/${CONV}/live`))).toBe(true));
  const ws = FakeWebSocket.instances.filter((w) => w.url.includes(`/api/conversations/${CONV}/live`)).at(-1)!;
  expect(ws.url).toMatch(new RegExp(`\\?after=${lastSeq}$`));
  act(() => {
    ws.open();
    ws.receive({ type: "sync", messages: [], last_seq: lastSeq, done: true, read_up_to: 0 });
  });
  return ws;
}

const field = () => screen.getByRole("textbox", { name: "Melding" });

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
  seq = 0;
});

describe("chat header and messages", () => {
  it("shows back, listing, the other party and the price; the listing part opens the listing", async () => {
    renderChat();
    expect(await screen.findByRole("heading", { level: 1, name: "Brio togbane" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Tilbake til meldinger" })).toHaveAttribute("href", "/messages");
    const listingLink = screen.getByRole("link", { name: /Brio togbane/ });
    expect(listingLink).toHaveAttribute("href", `/listing/${TEST_LISTING_ID}`);
    expect(listingLink).toHaveTextContent("Ola Hansen · 350 kr");
  });

  it("the strip of deals above the messages is a named region reached with Tab: a card without buttons still scrolls by keyboard", async () => {
    renderChat();
    await screen.findByRole("heading", { level: 1, name: "Brio togbane" });
    expect(screen.getByRole("region", { name: "Avtaler" })).toHaveAttribute("tabindex", "0");
  });

  it("a free listing says 'Gratis'", async () => {
    renderChat({ conv: conversation({ listing: { ...conversation().listing, price: null, is_free: true } }) });
    expect(await screen.findByRole("link", { name: /Brio togbane/ })).toHaveTextContent("Ola Hansen · Gratis");
  });

  it("says 'Laster samtale...' while loading, and 'Ingen meldinger ennå. Send den første!' when empty", async () => {
    renderChat();
    expect(screen.getByText("Laster samtale...")).toBeInTheDocument();
    expect(await screen.findByText("Ingen meldinger ennå. Send den første!")).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Melding" })).toHaveAttribute("placeholder", "Skriv en melding...");
  });

  it("groups by Oslo day with 'I dag' and 'I går'; own messages on the right with their read state; others' have the menu", async () => {
    const now = Date.now();
    const yesterday = new Date(now - 24 * 3_600_000).toISOString();
    renderChat({
      page: messagePageBody([
        msg({ content: "Fra i går", created_at: yesterday }),
        msg({ content: "Mitt svar", sender_id: ME, read_at: new Date().toISOString() }),
        msg({ content: "Siste", sender_id: ME }),
      ]),
    });
    const log = await screen.findByRole("log", { name: "Meldinger" });
    const yesterdayGroup = within(log).getByRole("region", { name: "I går" });
    const todayGroup = within(log).getByRole("region", { name: "I dag" });
    expect(within(yesterdayGroup).getByText("Fra i går")).toBeInTheDocument();
    expect(within(todayGroup).getByText("Mitt svar")).toBeInTheDocument();
    expect(within(todayGroup).getByRole("img", { name: "Lest" })).toBeInTheDocument();
    expect(within(todayGroup).getByRole("img", { name: "Sendt" })).toBeInTheDocument();
    // Only the other party's message has a menu, with "Rapporter melding".
    const menus = within(log).getAllByRole("button", { name: "Valg for meldingen" });
    expect(menus).toHaveLength(1);
    await userEvent.click(menus[0]);
    expect(await screen.findByRole("menuitem", { name: "Rapporter melding" })).toBeEnabled();
  });

  it("'Rapporter melding' opens 'Rapporter melding': a reason is required, then the report names the message", async () => {
    const other = msg({ content: "Kjøp billig her" });
    const reports: unknown[] = [];
    const { user } = renderChat({
      page: messagePageBody([other]),
      routes: [
        (url, init) => {
          if (url !== "/api/reports") return undefined;
          reports.push(bodyOf(init));
          return jsonResponse({ id: crypto.randomUUID(), created: true }, 201);
        },
      ],
    });
    await user.click(await screen.findByRole("button", { name: "Valg for meldingen" }));
    await user.click(await screen.findByRole("menuitem", { name: "Rapporter melding" }));
    const dialog = await screen.findByRole("dialog", { name: "Rapporter melding" });
    await user.click(within(dialog).getByRole("button", { name: "Send rapport" }));
    expect(within(dialog).getAllByText("Velg en årsak").length).toBeGreaterThan(0);
    expect(reports).toEqual([]);
    await user.selectOptions(within(dialog).getByLabelText("Årsak"), "Spam/reklame");
    expect(within(dialog).getByLabelText("Prioritet")).toHaveValue("normal");
    await user.click(within(dialog).getByRole("button", { name: "Send rapport" }));
    await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Rapport sendt"));
    expect(reports).toEqual([{ target_type: "message", target_id: other.id, reason: "Spam/reklame", description: "", priority: "normal" }]);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("a failed report says 'Kunne ikke sende rapport. Prøv igjen senere.'", async () => {
    const { user } = renderChat({
      page: messagePageBody([msg()]),
      routes: [(url) => (url === "/api/reports" ? apiError(500, "INTERNAL", "Noe gikk galt. Prøv igjen.") : undefined)],
    });
    await user.click(await screen.findByRole("button", { name: "Valg for meldingen" }));
    await user.click(await screen.findByRole("menuitem", { name: "Rapporter melding" }));
    const dialog = await screen.findByRole("dialog", { name: "Rapporter melding" });
    await user.selectOptions(within(dialog).getByLabelText("Årsak"), "Trakassering");
    await user.click(within(dialog).getByRole("button", { name: "Send rapport" }));
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke sende rapport. Prøv igjen senere.", { error: expect.anything() }),
    );
  });

  it("a message a moderator removed changes live to 'Meldingen er fjernet av moderator'", async () => {
    const bad = msg({ content: "Stygg melding" });
    renderChat({ page: messagePageBody([bad]) });
    const ws = await connect(bad.seq);
    expect(await screen.findByText("Stygg melding")).toBeInTheDocument();
    act(() =>
      ws.receive({
        type: "event",
        name: "message_removed",
        data: { id: bad.id, seq: bad.seq, content: "Meldingen er fjernet av moderator" },
      }),
    );
    expect(await screen.findByText("Meldingen er fjernet av moderator")).toBeInTheDocument();
    expect(screen.queryByText("Stygg melding")).not.toBeInTheDocument();
  });
});

describe("sending", () => {
  it("Enter sends over the socket, the button says 'Sender...' until the ack, then the field is empty", async () => {
    const { user } = renderChat();
    const ws = await connect();
    await user.type(field(), "  Hei, er den ledig?  ");
    await user.keyboard("{Enter}");
    const sent = ws.frames().find((f) => f.type === "send")!;
    expect(sent).toMatchObject({ type: "send", content: "Hei, er den ledig?" });
    expect(sent.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(screen.getByRole("button", { name: "Sender..." })).toBeDisabled();
    act(() =>
      ws.receive({ type: "ack", id: sent.id, message: msg({ id: sent.id as string, sender_id: ME, content: "Hei, er den ledig?" }) }),
    );
    await waitFor(() => expect(field()).toHaveValue(""));
    expect(screen.getByRole("button", { name: "Send" })).toBeInTheDocument();
    expect(screen.getByText("Hei, er den ledig?")).toBeInTheDocument();
  });

  it("Shift+Enter makes a new line and sends nothing", async () => {
    const { user } = renderChat();
    const ws = await connect();
    await user.type(field(), "Linje 1{Shift>}{Enter}{/Shift}Linje 2");
    expect(field()).toHaveValue("Linje 1\nLinje 2");
    expect(ws.frames().filter((f) => f.type === "send")).toEqual([]);
  });

  it("whitespace alone cannot be sent", async () => {
    const { user } = renderChat();
    const ws = await connect();
    await user.type(field(), "   {Enter}");
    expect(ws.frames().filter((f) => f.type === "send")).toEqual([]);
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
  });

  it("a refused send says 'Kunne ikke sende melding' and keeps the text", async () => {
    const { user } = renderChat();
    const ws = await connect();
    await user.type(field(), "For mange{Enter}");
    const sent = ws.frames().find((f) => f.type === "send")!;
    act(() => ws.receive({ type: "error", id: sent.id, code: "RATE_LIMITED", message: "For mange forsøk. Vent litt og prøv igjen." }));
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Kunne ikke sende melding", "For mange forsøk. Vent litt og prøv igjen."),
    );
    expect(field()).toHaveValue("For mange");
  });

  it("without a socket the message goes over HTTP with its id; a network failure keeps the text", async () => {
    const posts: unknown[] = [];
    let fail = true;
    const { user } = renderChat({
      routes: [
        (url, init) => {
          if (url !== `/api/conversations/${CONV}/messages` || method(init) !== "POST") return undefined;
          posts.push(bodyOf(init));
          if (fail) return Promise.reject(new TypeError("Failed to fetch"));
          const body = bodyOf(init) as { id: string; content: string };
          return jsonResponse(msg({ id: body.id, content: body.content, sender_id: ME }), 201);
        },
      ],
    });
    await screen.findByText("Ingen meldinger ennå. Send den første!");
    // The socket never opens.
    await user.type(field(), "Via HTTP{Enter}");
    await waitFor(() => expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke sende melding", { error: expect.anything() }));
    expect(field()).toHaveValue("Via HTTP");
    fail = false;
    await user.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(field()).toHaveValue(""));
    expect(screen.getByText("Via HTTP")).toBeInTheDocument();
    expect(posts).toHaveLength(2);
    expect(posts[0]).toMatchObject({ content: "Via HTTP" });
  });

  it("when the socket drops before the ack, the same message (same id) is sent over HTTP", async () => {
    const posts: { id: string; content: string }[] = [];
    const { user } = renderChat({
      routes: [
        (url, init) => {
          if (url !== `/api/conversations/${CONV}/messages` || method(init) !== "POST") return undefined;
          const body = bodyOf(init) as { id: string; content: string };
          posts.push(body);
          return jsonResponse(msg({ id: body.id, content: body.content, sender_id: ME }), 201);
        },
      ],
    });
    const ws = await connect();
    await user.type(field(), "Viktig{Enter}");
    const sent = ws.frames().find((f) => f.type === "send")!;
    act(() => ws.drop());
    await waitFor(() => expect(field()).toHaveValue(""));
    expect(posts).toEqual([{ id: sent.id, content: "Viktig" }]);
  });
});

describe("live", () => {
  it("shows incoming messages and marks them read while the chat is open", async () => {
    renderChat();
    const ws = await connect();
    act(() => ws.receive({ type: "message", message: msg({ content: "Ny fra Kari" }) }));
    expect(await screen.findByText("Ny fra Kari")).toBeInTheDocument();
    await waitFor(() => expect(ws.frames()).toContainEqual({ type: "read", up_to_seq: 1 }));
  });

  it("after each catch-up it fetches the offers above the chat again: an offer made while the socket was connecting is not missed", async () => {
    // The room sends live events only to sockets that are connected; an offer made between the
    // strip's first fetch and the socket's catch-up announced itself to nobody here.
    const cardsUrl = `/api/trade-offers/conversation/${CONV}`;
    let offers: unknown[] = [];
    const { fetch } = renderChat({ routes: [(url) => (url === cardsUrl ? jsonResponse(offers) : undefined)] });
    await waitFor(() => expect(fetch.mock.calls.filter(([url]) => url === cardsUrl)).toHaveLength(1));
    offers = [tradeOfferBody({ from_user_id: OTHER, to_user_id: TEST_USER_ID })];
    await connect();
    expect(await screen.findByRole("article")).toHaveTextContent("Ola Hansen foreslo et bytte");
  });

  it("the header follows the deal live: a completed trade's event, then a give-away's system message, change its state", async () => {
    let status = "reserved";
    const header = () => conversation({ listing: { ...conversation().listing, status } });
    renderChat({
      routes: [(url, init) => (url === `/api/conversations/${CONV}` && method(init) === "GET" ? jsonResponse(header()) : undefined)],
    });
    const ws = await connect();
    const banner = within(screen.getByRole("banner"));
    expect(await banner.findByText("Reservert")).toBeInTheDocument();
    // Both confirmed the handover: the room announces the offer, and the listing is traded.
    status = "traded";
    act(() => ws.receive({ type: "event", name: "trade_offer", data: {} }));
    expect(await banner.findByText("Byttet")).toBeInTheDocument();
    expect(banner.queryByText("Reservert")).not.toBeInTheDocument();
    // A move that sends no event of its own says so in a system message.
    status = "given_away";
    act(() => ws.receive({ type: "message", message: msg({ sender_id: SYSTEM_USER_ID, content: "«Brio togbane» er gitt bort." }) }));
    expect(await banner.findByText("Gitt bort")).toBeInTheDocument();
  });

  it("asks for what it missed from the last seq it has when it reconnects, and shows 'Kobler til'", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderChat({ page: messagePageBody([msg({ sender_id: ME }), msg({ sender_id: ME })]) });
      const ws = await connect(2);
      act(() => ws.drop());
      await act(() => vi.advanceTimersByTimeAsync(900));
      expect(screen.getByRole("status")).toHaveTextContent(/Kobler til/);
      await act(() => vi.advanceTimersByTimeAsync(200));
      const again = FakeWebSocket.last();
      expect(again).not.toBe(ws);
      expect(again.url).toMatch(/\?after=2$/);
      act(() => {
        again.open();
        again.receive({ type: "sync", messages: [msg({ content: "Mens du var borte" })], last_seq: 3, done: true, read_up_to: 2 });
      });
      expect(await screen.findByText("Mens du var borte")).toBeInTheDocument();
      expect(screen.queryByText(/Kobler til/)).not.toBeInTheDocument();
      // My two messages were read while I was away.
      expect(screen.getAllByRole("img", { name: "Lest" })).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows the other party's read receipt on my messages", async () => {
    renderChat({ page: messagePageBody([msg({ sender_id: ME, content: "Mitt" })]) });
    const ws = await connect(1);
    expect(screen.getByRole("img", { name: "Sendt" })).toBeInTheDocument();
    act(() => ws.receive({ type: "read", reader_id: OTHER, up_to_seq: 1, read_at: new Date().toISOString() }));
    expect(await screen.findByRole("img", { name: "Lest" })).toBeInTheDocument();
  });
});

describe("load errors", () => {
  it("a missing or foreign conversation shows 'Samtale ikke funnet' with 'Tilbake til meldinger'", async () => {
    mockApi(() => apiError(404, "NOT_FOUND", "Samtale ikke funnet"));
    renderRoutes(routes, { seed: { session: sessionFor("user") }, path: `/chat/${CONV}` });
    expect(await screen.findByRole("heading", { name: "Samtale ikke funnet" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Tilbake til meldinger" })).toHaveAttribute("href", "/messages");
  });

  it("another failure says 'Kunne ikke hente samtale' and goes to /messages", async () => {
    mockApi(() => apiError(500, "INTERNAL", "Noe gikk galt. Prøv igjen."));
    const { router } = renderRoutes(routes, { seed: { session: sessionFor("user") }, path: `/chat/${CONV}` });
    await waitFor(() => expect(router.state.location.pathname).toBe("/messages"));
    expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke hente samtale", expect.anything());
  });

  it("messages that cannot be loaded say 'Kunne ikke hente meldinger'", async () => {
    mockApi((url) => {
      if (url === `/api/conversations/${CONV}`) return jsonResponse(conversation());
      if (url.startsWith(`/api/conversations/${CONV}/messages`)) return apiError(500, "INTERNAL", "Noe gikk galt. Prøv igjen.");
    });
    renderRoutes(routes, { seed: { session: sessionFor("user") }, path: `/chat/${CONV}` });
    await waitFor(() => expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke hente meldinger", expect.anything()), {
      timeout: 5000,
    });
  });

  it("a deleted other party shows 'Slettet bruker' and the composer explains why it is off", async () => {
    renderChat({ conv: conversation({ other_user: { id: OTHER, display_name: "Slettet bruker", deleted: true } }) });
    expect(await screen.findByRole("link", { name: /Slettet bruker/ })).toBeInTheDocument();
    expect(field()).toBeDisabled();
    expect(field()).toHaveAccessibleDescription(/slettet kontoen sin/);
  });
});
