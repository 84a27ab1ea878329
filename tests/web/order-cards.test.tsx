// The held money's card in the deal's chat (decision 105): each party's words and buttons for the
// state, the confirmation before money moves, the problem form, and the Worker's refusal shown.
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { OrderView } from "../../web/api/payments";
import * as toast from "../../web/lib/toast";
import { OrderCards } from "../../web/routes/chat/OrderCards";
import { jsonResponse, mockFetch, renderWithProviders } from "./utils";

const CONVERSATION = "66666666-6666-4666-8666-666666666666";
const TX = "abcdef12-3456-4789-8abc-def012345678";

function order(overrides: Partial<OrderView> = {}): OrderView {
  return {
    transaction_id: TX,
    state: "held",
    role: "buyer",
    amount: 30000,
    refund_amount: 0,
    paid_at: "2026-11-12T13:05:00.000Z",
    handed_over_at: null,
    release_due_at: null,
    cancel_from: "2099-11-19T13:05:00.000Z",
    settled_at: null,
    money_moved: false,
    payout_error: null,
    actions: ["confirm_received", "report_problem"],
    listing: { id: "l", title: "Trehest", seo_slug: "trehest" },
    conversation_id: CONVERSATION,
    ...overrides,
  };
}

beforeEach(() => {
  vi.spyOn(toast, "toastError").mockImplementation(() => "");
});

describe("the order card", () => {
  it("buyer, held: 'Pengene holdes trygt til du har fått varen'; 'Jeg har fått varen' asks first, then releases", async () => {
    // The Worker's state: held until the POST releases it.
    let current = order();
    const fetch = mockFetch((_url, init) => {
      if (init?.method === "POST") current = order({ state: "released", money_moved: true, actions: [] });
      return jsonResponse(init?.method === "POST" ? current : [current]);
    });
    renderWithProviders(<OrderCards conversationId={CONVERSATION} />);
    const card = await screen.findByRole("article", { name: "Trygg betaling: Trehest" });
    expect(card).toHaveTextContent("Pengene holdes trygt til du har fått varen");
    expect(screen.queryByRole("button", { name: "Overlevert til kjøper" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Jeg har fått varen" }));
    expect(fetch.mock.calls.filter(([, init]) => init?.method === "POST")).toHaveLength(0);
    await userEvent.click(screen.getByRole("button", { name: "Ja" }));
    expect(await screen.findAllByText("Utbetalt til selger")).not.toHaveLength(0);
    expect(fetch.mock.calls.some(([url, init]) => init?.method === "POST" && String(url) === `/api/payments/orders/${TX}/received`)).toBe(
      true,
    );
  });

  it("seller, held: the handover button; after it 'Pengene utbetales når kjøperen har bekreftet, senest {dato}'", async () => {
    mockFetch(() =>
      jsonResponse([order({ role: "seller", state: "handed_over", release_due_at: "2026-11-14T13:05:00.000Z", actions: [] })]),
    );
    renderWithProviders(<OrderCards conversationId={CONVERSATION} />);
    expect(await screen.findByText("Pengene utbetales når kjøperen har bekreftet, senest 14. november 2026 kl. 14:05")).toBeInTheDocument();
  });

  it("'Meld fra om et problem' (a dialog) sends the reason and the text; a refusal is shown in the Worker's words", async () => {
    const fetch = mockFetch((_url, init) =>
      init?.method === "POST"
        ? jsonResponse({ error: { code: "CONFLICT", message: "Pengene er allerede utbetalt til selger." } }, 409)
        : jsonResponse([order()]),
    );
    renderWithProviders(<OrderCards conversationId={CONVERSATION} />);
    await userEvent.click(await screen.findByRole("button", { name: "Meld fra om et problem" }));
    await userEvent.selectOptions(screen.getByLabelText("Hva er problemet?"), "damaged");
    const send = screen.getByRole("button", { name: "Send" });
    await userEvent.click(send);
    expect(screen.getByText("Beskriv problemet med minst 10 tegn")).toBeInTheDocument();
    expect(fetch.mock.calls.filter(([, init]) => init?.method === "POST")).toHaveLength(0);
    await userEvent.type(screen.getByLabelText("Beskriv problemet"), "Hjulet er knekt av.");
    await userEvent.click(send);
    const post = fetch.mock.calls.find(([, init]) => init?.method === "POST");
    expect(String(post![0])).toBe(`/api/payments/orders/${TX}/problem`);
    expect(JSON.parse(String(post![1]!.body))).toEqual({ reason: "damaged", text: "Hjulet er knekt av." });
    await vi.waitFor(() => expect(toast.toastError).toHaveBeenCalledWith("Feil", "Pengene er allerede utbetalt til selger."));
  });

  it("says what is owed when the seller's account refused the transfer, and 'Pengene er betalt tilbake' after a refund", async () => {
    mockFetch(() =>
      jsonResponse([
        order({ role: "seller", state: "released", actions: [], payout_error: "Stripe-kontoen din kan ikke ta imot utbetalinger." }),
        order({
          transaction_id: "11111111-1111-4111-8111-111111111111",
          state: "refunded",
          refund_amount: 30000,
          actions: [],
          listing: { id: "m", title: "Dukkehus", seo_slug: "d" },
        }),
      ]),
    );
    renderWithProviders(<OrderCards conversationId={CONVERSATION} />);
    expect(
      await screen.findByText("Vi kunne ikke utbetale pengene: Stripe-kontoen din kan ikke ta imot utbetalinger."),
    ).toBeInTheDocument();
    const refunded = screen.getByRole("article", { name: "Trygg betaling: Dukkehus" });
    expect(refunded).toHaveTextContent("Pengene er betalt tilbake");
    expect(refunded.querySelectorAll("button")).toHaveLength(0);
  });
});
