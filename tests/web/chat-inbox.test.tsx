// The inbox (/messages), the header's live unread badge and the notification test page.
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { Header } from "../../web/components/layout/Header";
import { chatKeys } from "../../web/api/chat";
import { InboxPage } from "../../web/routes/messages/InboxPage";
import { TestNotificationsPage } from "../../web/routes/test-notifications/TestNotificationsPage";
import {
  TEST_SELLER_ID,
  conversationSummaryBody,
  testNotificationBody,
  testNotificationsAvailableBody,
  unreadCountBody,
  type ConversationSummaryBody,
} from "../factories/api";
import { FakeWebSocket } from "./fakeWebSocket";
import { apiError, bodyOf, method, mockApi } from "./listingHelpers";
import { jsonResponse, renderRoutes, renderWithProviders, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

const ME = sessionFor("user").user.id;

/** An inbox entry with its own id: the test user and Ola Hansen about "Brio togbane". */
function summary(overrides: Partial<ConversationSummaryBody> = {}): ConversationSummaryBody {
  return conversationSummaryBody({ id: crypto.randomUUID(), ...overrides });
}

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

describe("/messages", () => {
  it("lists conversations with listing, other party, last message, time and unread count", async () => {
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000 - 3_600_000).toISOString();
    mockApi((url) =>
      url === "/api/conversations"
        ? jsonResponse([
            summary({
              id: "a",
              unread_count: 3,
              last_message: { content: "Er den ledig?", created_at: new Date().toISOString(), sender_id: TEST_SELLER_ID },
            }),
            summary({
              id: "b",
              other_user: { id: "x", display_name: "Slettet bruker", deleted: true },
              last_message: { content: "Takk!", created_at: twoDaysAgo, sender_id: ME },
            }),
          ])
        : undefined,
    );
    renderRoutes([{ path: "/messages", element: <InboxPage /> }], { seed: { session: sessionFor("user") }, path: "/messages" });
    const first = await screen.findByRole("link", { name: /Ola Hansen/ });
    expect(first).toHaveAttribute("href", "/chat/a");
    expect(first).toHaveTextContent("Brio togbane");
    expect(first).toHaveTextContent("Er den ledig?");
    expect(within(first).getByText("3")).toBeInTheDocument();
    expect(first).toHaveTextContent(/\d{2}:\d{2}/);
    const second = screen.getByRole("link", { name: /Slettet bruker/ });
    expect(second).toHaveTextContent("Du: Takk!");
    expect(second).not.toHaveTextContent("uleste");
  });

  it("has an empty state", async () => {
    mockApi((url) => (url === "/api/conversations" ? jsonResponse([]) : undefined));
    renderRoutes([{ path: "/messages", element: <InboxPage /> }], { seed: { session: sessionFor("user") }, path: "/messages" });
    expect(await screen.findByText("Ingen samtaler ennå")).toBeInTheDocument();
  });
});

describe("header badge", () => {
  it("is pushed live over the inbox socket, polled as a fallback, and a failed poll keeps the count", async () => {
    let failing = false;
    const fetch = mockApi((url) => {
      if (url !== "/api/conversations/unread-count") return undefined;
      return failing ? apiError(500, "INTERNAL", "Noe gikk galt. Prøv igjen.") : jsonResponse(unreadCountBody(2));
    });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const { queryClient } = renderWithProviders(<Header />, { seed: { session: sessionFor("user") } });
    expect(await screen.findByRole("link", { name: "Meldinger, 2 uleste" })).toBeInTheDocument();

    // The inbox socket (lazy) pushes a new count.
    await waitFor(() => expect(FakeWebSocket.instances.some((w) => w.url.endsWith("/api/conversations/live"))).toBe(true));
    const ws = FakeWebSocket.instances.find((w) => w.url.endsWith("/api/conversations/live"))!;
    act(() => {
      ws.open();
      ws.receive({ type: "unread", count: 120 });
    });
    expect(await screen.findByRole("link", { name: "Meldinger, 99+ uleste" })).toHaveTextContent("99+");

    failing = true;
    await act(() => queryClient.refetchQueries({ queryKey: chatKeys.unreadCount }));
    expect(fetch).toHaveBeenCalledWith("/api/conversations/unread-count", expect.anything());
    expect(screen.getByRole("link", { name: "Meldinger, 99+ uleste" })).toBeInTheDocument();
  });

  // The badge's frame comes once the server has the message (decision 107); a list load that was
  // already under way answers from before it, so the inbox must load again rather than keep that answer.
  it("a frame that arrives while the inbox's first load is under way loads the list again", async () => {
    let answerFirst!: (response: Response) => void;
    let loads = 0;
    mockApi((url) => {
      if (url === "/api/conversations/unread-count") return jsonResponse(unreadCountBody(0));
      if (url !== "/api/conversations") return undefined;
      loads++;
      if (loads === 1) return new Promise<Response>((resolve) => (answerFirst = resolve));
      return jsonResponse([
        summary({
          id: "a",
          unread_count: 1,
          last_message: { content: "Adressen er Storgata 1.", created_at: new Date().toISOString(), sender_id: TEST_SELLER_ID },
        }),
      ]);
    });
    renderRoutes(
      [
        {
          path: "/messages",
          element: (
            <>
              <Header />
              <InboxPage />
            </>
          ),
        },
      ],
      { seed: { session: sessionFor("user") }, path: "/messages" },
    );
    await waitFor(() => expect(loads).toBe(1));
    await waitFor(() => expect(FakeWebSocket.instances.some((w) => w.url.endsWith("/api/conversations/live"))).toBe(true));
    const ws = FakeWebSocket.instances.find((w) => w.url.endsWith("/api/conversations/live"))!;
    act(() => {
      ws.open();
      ws.receive({ type: "unread", count: 1, conversation_id: "a" });
    });
    expect(await screen.findByRole("link", { name: "Meldinger, 1 uleste" })).toBeInTheDocument();
    // The first load's answer, from before the message, arrives only now.
    act(() =>
      answerFirst(
        jsonResponse([
          summary({
            id: "a",
            unread_count: 0,
            last_message: { content: "Ja, den er ledig!", created_at: new Date().toISOString(), sender_id: TEST_SELLER_ID },
          }),
        ]),
      ),
    );
    const row = await screen.findByRole("link", { name: /Ola Hansen/ });
    await waitFor(() => expect(row).toHaveTextContent("Adressen er Storgata 1."));
    expect(loads).toBe(2);
  });

  it("a visitor has no badge and no socket", async () => {
    renderWithProviders(<Header />, { seed: { session: null } });
    expect(screen.getByRole("link", { name: "Meldinger" })).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 20));
    expect(FakeWebSocket.instances).toEqual([]);
  });
});

describe("/test-notifications", () => {
  function renderPage(session = sessionFor("user"), post?: (body: unknown) => Response | Promise<Response>) {
    mockApi((url, init) => {
      if (url === "/api/test-notifications" && method(init) === "GET") return jsonResponse(testNotificationsAvailableBody());
      if (url === "/api/test-notifications" && method(init) === "POST") return post?.(bodyOf(init));
      if (url === "/api/conversations/unread-count") return jsonResponse(unreadCountBody(4));
    });
    return renderRoutes([{ path: "/test-notifications", element: <TestNotificationsPage /> }], {
      seed: { session },
      path: "/test-notifications",
    });
  }

  it("shows the unread count with a refresh button, the default text, the button and the links", async () => {
    renderPage();
    expect(await screen.findByRole("heading", { level: 1, name: "Test av varsler" })).toBeInTheDocument();
    expect(await screen.findByText("4")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Oppdater" })).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Test-melding" })).toHaveValue("Test melding for notifikasjoner");
    expect(screen.getByRole("button", { name: "Opprett Test-melding" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Gå til meldinger" })).toHaveAttribute("href", "/messages");
    expect(screen.getByRole("link", { name: "Legg ut en annonse" })).toHaveAttribute("href", "/create-listing");
  });

  it.each([
    { name: "success", answer: () => jsonResponse(testNotificationBody(), 201), toast: ["toastSuccess", "Test-melding opprettet!"] },
    {
      name: "no conversation",
      answer: () => apiError(404, "NOT_FOUND", "Ingen samtaler funnet"),
      toast: ["toastError", "Feil", "Ingen samtaler funnet"],
    },
    {
      name: "over the limit: why, and how long to wait",
      answer: () => apiError(429, "RATE_LIMITED", "Du kan lage høyst 10 test-meldinger i minuttet. Vent 42 sekunder og prøv igjen."),
      toast: [
        "toastError",
        "Kunne ikke lage test-melding",
        "Du kan lage høyst 10 test-meldinger i minuttet. Vent 42 sekunder og prøv igjen.",
      ],
    },
    {
      name: "refused",
      answer: () => apiError(500, "INTERNAL", "Noe gikk galt. Prøv igjen."),
      toast: ["toastError", "Feil", "Kunne ikke lage test-melding"],
    },
    {
      name: "network",
      answer: () => Promise.reject(new TypeError("Failed to fetch")),
      toast: ["toastError", "Feil", "Noe gikk galt ved opprettelse av test-melding"],
    },
  ])("$name", async ({ answer, toast: [fn, ...args] }) => {
    const bodies: unknown[] = [];
    renderPage(sessionFor("user"), (body) => {
      bodies.push(body);
      return answer();
    });
    await userEvent.click(await screen.findByRole("button", { name: "Opprett Test-melding" }));
    await waitFor(() => expect(toast[fn as "toastError"]).toHaveBeenCalledWith(...args));
    expect(bodies).toEqual([{ content: "Test melding for notifikasjoner" }]);
  });

  it("a visitor is told 'Ikke logget inn' and nothing is sent", async () => {
    const post = vi.fn();
    renderPage(null as never, post);
    await userEvent.click(await screen.findByRole("button", { name: "Opprett Test-melding" }));
    expect(toast.toastError).toHaveBeenCalledWith("Feil", "Ikke logget inn");
    expect(post).not.toHaveBeenCalled();
  });
});
