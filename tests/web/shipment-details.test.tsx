// A sent order's parcel where buyer and seller see the order (decision 145): the chat's order card and
// /betaling-fullfort. The state, carrier and delivery with the point, "Leken" and "Frakt"; the
// seller's "Sendekode" and "Lever pakken innen {dato}" (Oslo's calendar) while booked; the buyer's
// shipment number; a refused booking's texts and "Prøv igjen". The Worker is mocked.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { RouteObject } from "react-router-dom";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { PaymentDetails } from "../../domain/order-views";
import type { ShipmentView } from "../../domain/shipping";
import type { OrderView } from "../../web/api/payments";
import { OrderCards } from "../../web/routes/chat/OrderCards";
import { PaymentDetailsPage } from "../../web/routes/payment/PaymentDetailsPage";
import { orderViewBody } from "../factories/api";
import { jsonResponse, mockFetch, renderRoutes, renderWithProviders, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

const CONVERSATION = "66666666-6666-4666-8666-666666666666";
const TX = "abcdef12-3456-4789-8abc-def012345678";
const RETRY = `/api/payments/orders/${TX}/shipment/retry`;

function shipment(overrides: Partial<ShipmentView> = {}): ShipmentView {
  return {
    carrier: "bring",
    delivery: "parcel_locker",
    parcel_size: "medium",
    state: "booked",
    toy_price: 125000,
    shipping_price: 8900,
    pickup_point: { name: "Pakkeautomat Coop Mega Grünerløkka", address: "Thorvald Meyers gate 49, 0555 OSLO" },
    recipient: { name: "Kari Nordmann", address_line: "Storgata 12B", postal_code: "0555", city: "OSLO" },
    shipment_number: "70730259304981604",
    drop_off_code: null,
    // The end of 7 December in Oslo (22:59:59.999 UTC).
    drop_off_deadline: "2026-12-07T22:59:59.999Z",
    booking_error: null,
    can_retry: false,
    ...overrides,
  };
}

/** The seller's view of a paid order sent to a parcel locker, booked. */
const order = (overrides: Partial<OrderView> = {}): OrderView =>
  orderViewBody({
    order_id: TX,
    role: "seller",
    amount: 133900,
    actions: ["mark_handed_over"],
    listing: { id: "l", title: "Brio togbane", seo_slug: "brio-togbane" },
    conversation_id: CONVERSATION,
    shipment: shipment({ drop_off_code: "LL12 3456 789" }),
    ...overrides,
  });

async function card(orders: OrderView[], answer?: (url: string, init: RequestInit | undefined) => Response | undefined) {
  const fetch = mockFetch((url, init) => answer?.(url, init) ?? jsonResponse(orders));
  renderWithProviders(<OrderCards conversationId={CONVERSATION} />);
  const article = await screen.findByRole("article", { name: "Trygg betaling: Brio togbane" });
  return { fetch, article, parcel: within(article).getByRole("region", { name: "Frakt" }) };
}

describe("the order card of a sent order", () => {
  it("delivered: the buyer reads that the parcel is delivered, not that the seller marked a handover; the badge says the money is held", async () => {
    const delivered = order({
      role: "buyer",
      state: "handed_over",
      release_due_at: "2026-12-02T02:29:00.000Z",
      actions: ["confirm_received", "report_problem"],
      shipment: shipment({ state: "delivered" }),
    });
    const { article } = await card([delivered]);
    expect(article).toHaveTextContent("Pakken er levert. Pengene utbetales automatisk 2. desember 2026 kl. 03:29 hvis du ikke svarer.");
    expect(article).not.toHaveTextContent("Selgeren har markert varen som overlevert");
    expect(article).not.toHaveTextContent("Overlevert til kjøper");
    expect(article).toHaveTextContent("Pengene holdes");
  });

  it("held, the seller of a sent toy: told the 48 hours count from the delivery, not to press a handover", async () => {
    const { article } = await card([order({ actions: [] })]);
    expect(article).toHaveTextContent("Pengene utbetales når kjøperen har bekreftet, senest 48 timer etter at pakken er levert.");
    expect(article).not.toHaveTextContent("Trykk «Overlevert til kjøper»");
  });

  it("the seller, booked: the state, carrier and point, 'Sendekode' set apart and selectable, the deadline and where to hand it in", async () => {
    const { article, parcel } = await card([order()]);
    expect(parcel).toHaveTextContent("Venter på innlevering");
    expect(parcel).toHaveTextContent("Posten · Pakkeautomat");
    expect(parcel).toHaveTextContent("Pakkeautomat Coop Mega Grünerløkka, Thorvald Meyers gate 49, 0555 OSLO");
    expect(parcel).toHaveTextContent(/Sendekode: LL12 3456 789/);
    const code = within(parcel).getByText("LL12 3456 789");
    expect(code.tagName).toBe("STRONG");
    expect(code).toHaveClass("select-all");
    expect(parcel).toHaveTextContent("Lever pakken innen 7. desember 2026");
    expect(parcel).toHaveTextContent("Lever pakken på et postkontor, hos Post i Butikk eller i en pakkeautomat.");
    const prices = within(parcel).getByText("Leken").closest("dl")!;
    expect(prices.textContent!.replace(/\s/g, " ")).toBe("Leken1 250,00 krFrakt89,00 kr");
    // The seller has the code, not the buyer's tracking number.
    expect(parcel).not.toHaveTextContent("Sporingsnummer");
    // The order's own buttons are as they were.
    expect(within(article).getByRole("button", { name: "Overlevert til kjøper" })).toBeInTheDocument();
  });

  it("the deadline's day is Oslo's: 00:30 on 5 July in Oslo is still 4 July in UTC", async () => {
    const { parcel } = await card([order({ shipment: shipment({ drop_off_code: "LL1", drop_off_deadline: "2026-07-04T22:30:00.000Z" }) })]);
    expect(parcel).toHaveTextContent("Lever pakken innen 5. juli 2026");
  });

  it("the buyer: the shipment number once booked, never a code; before booking no number", async () => {
    const { parcel } = await card([order({ role: "buyer", actions: ["confirm_received"], shipment: shipment() })]);
    expect(parcel).toHaveTextContent("Sporingsnummer: 70730259304981604");
    expect(parcel).not.toHaveTextContent("Sendekode");
    expect(parcel).not.toHaveTextContent("Lever pakken innen");
  });

  it("a parcel to the mailbox names no point; in transit it says so", async () => {
    const { parcel } = await card([
      order({ role: "buyer", shipment: shipment({ delivery: "mailbox", pickup_point: null, state: "in_transit" }) }),
    ]);
    expect(parcel).toHaveTextContent("Pakken er på vei");
    expect(parcel).toHaveTextContent("Posten · I postkassen");
    expect(parcel).not.toHaveTextContent("Pakkeautomat Coop");
  });

  it("booking failed, the seller: the carrier's refusal (what to fix) and 'Prøv igjen', which asks the Worker and shows its answer", async () => {
    const failed = order({
      shipment: shipment({
        state: "booking_failed",
        shipment_number: null,
        booking_error: "Avsenderens telefonnummer er ugyldig.",
        can_retry: true,
      }),
    });
    // The Worker's state: failed until the POST, then booking again.
    let current = failed;
    let retried = false;
    const { fetch, parcel } = await card([failed], (url, init) => {
      if (url !== RETRY || init?.method !== "POST") return jsonResponse([current]);
      retried = true;
      current = order({ shipment: shipment({ state: "booking", shipment_number: null }) });
      return jsonResponse(current);
    });
    expect(parcel).toHaveTextContent("Frakten kunne ikke bestilles");
    // The refusal says what to fix; the generic text would only repeat it.
    expect(parcel).toHaveTextContent("Avsenderens telefonnummer er ugyldig.");
    expect(parcel).not.toHaveTextContent("Vi fikk ikke bestilt frakten. Sjekk at adressen");
    await userEvent.click(within(parcel).getByRole("button", { name: "Prøv igjen" }));
    await waitFor(() => expect(retried).toBe(true));
    expect(await screen.findByText("Frakten bestilles")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Prøv igjen" })).not.toBeInTheDocument();
    expect(fetch.mock.calls.filter(([url]) => url === RETRY)).toHaveLength(1);
  });

  it("booking failed, the buyer: the buyer's text, not the carrier's refusal; no button without can_retry", async () => {
    const { parcel } = await card([
      order({
        role: "buyer",
        shipment: shipment({ state: "booking_failed", shipment_number: null, booking_error: null, can_retry: false }),
      }),
    ]);
    expect(parcel).toHaveTextContent(
      "Vi fikk ikke bestilt frakten ennå. Pengene holdes trygt, og du får pengene tilbake hvis pakken ikke sendes.",
    );
    expect(within(parcel).queryByRole("button", { name: "Prøv igjen" })).not.toBeInTheDocument();
  });

  it("a refused 'Prøv igjen' says the Worker's reason", async () => {
    const failed = order({ shipment: shipment({ state: "booking_failed", booking_error: "Ugyldig adresse.", can_retry: true }) });
    const { parcel } = await card([failed], (url) =>
      url === RETRY ? jsonResponse({ error: { code: "CONFLICT", message: "Frakten bestilles allerede." } }, 409) : undefined,
    );
    await userEvent.click(within(parcel).getByRole("button", { name: "Prøv igjen" }));
    await waitFor(() => expect(toast.toastError).toHaveBeenCalledWith("Feil", "Frakten bestilles allerede.", { error: expect.anything() }));
  });

  it("an order picked up has no parcel part", async () => {
    mockFetch(() => jsonResponse([order({ shipment: null })]));
    renderWithProviders(<OrderCards conversationId={CONVERSATION} />);
    const article = await screen.findByRole("article", { name: "Trygg betaling: Brio togbane" });
    expect(within(article).queryByRole("region", { name: "Frakt" })).not.toBeInTheDocument();
  });
});

describe("/betaling-fullfort of a sent order", () => {
  const SESSION = "cs_test_abc";
  const routes: RouteObject[] = [{ path: "/betaling-fullfort", element: <PaymentDetailsPage /> }];
  const details = (o: OrderView): PaymentDetails => ({
    order_id: TX,
    session_id: SESSION,
    provider: "card",
    amount: 133900,
    currency: "NOK",
    paid_at: "2026-11-30T13:05:00.000Z",
    role: "seller",
    conversation_id: CONVERSATION,
    listing: { id: "l", title: "Brio togbane", images: [], seo_slug: "brio-togbane" },
    seller: { user_id: "s", display_name: "Siri Selger" },
    order: o,
  });

  it("shows the seller's code and deadline, and 'Prøv igjen' there updates the page", async () => {
    mockFetch((url, init) => {
      if (url === RETRY && init?.method === "POST") return jsonResponse(order({ shipment: shipment({ drop_off_code: "LL99 8888 777" }) }));
      return jsonResponse(
        details(order({ shipment: shipment({ state: "booking_failed", booking_error: "Feil postnummer.", can_retry: true }) })),
      );
    });
    renderRoutes(routes, { seed: { session: sessionFor() }, path: `/betaling-fullfort?session_id=${SESSION}` });
    const parcel = await screen.findByRole("region", { name: "Frakt" });
    expect(parcel).toHaveTextContent("Feil postnummer.");
    await userEvent.click(within(parcel).getByRole("button", { name: "Prøv igjen" }));
    expect(await within(parcel).findByText("LL99 8888 777")).toBeInTheDocument();
    expect(parcel).toHaveTextContent("Lever pakken innen 7. desember 2026");
  });
});
