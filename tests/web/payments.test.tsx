import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { RouteObject } from "react-router-dom";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { PaymentDetails } from "../../domain/order-views";
import type { VerifyResponse } from "../../domain/payments";
import type { PricingMode } from "../../domain/taxonomy";
import { browser } from "../../web/api/payments";
import PaymentChooser, { paymentOptions } from "../../web/routes/listing/payment/PaymentChooser";
import { PaymentDetailsPage } from "../../web/routes/payment/PaymentDetailsPage";
import { PaymentSuccessPage } from "../../web/routes/payment/PaymentSuccessPage";
import { jsonResponse, mockFetch, renderRoutes, renderWithProviders, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

const apiError = (status: number, message: string, code = "CONFLICT") => jsonResponse({ error: { code, message } }, status);

describe("payment options (docs/product.md, Limits and timings)", () => {
  it.each<[boolean, PricingMode, string[]]>([
    [true, "marketplace", ["card", "vipps", "cash", "bank_transfer"]],
    [true, "stripe", ["card", "cash", "bank_transfer"]],
    [true, "vipps", ["vipps", "cash", "bank_transfer"]],
    [true, "standard", ["cash", "bank_transfer"]],
    [false, "marketplace", ["cash", "bank_transfer"]],
    [false, "stripe", ["cash", "bank_transfer"]],
  ])("payment_enabled %s, %s → %j", (enabled, mode, expected) => {
    expect(paymentOptions({ payment_enabled: enabled, pricing_mode: mode, is_free: false, price: 450 })).toEqual(expected);
  });

  it("a free listing, or one below the minimum, offers nothing online whatever its setting", () => {
    expect(paymentOptions({ payment_enabled: true, pricing_mode: "marketplace", is_free: true, price: null })).toEqual([
      "cash",
      "bank_transfer",
    ]);
    expect(paymentOptions({ payment_enabled: true, pricing_mode: "marketplace", is_free: false, price: 2 })).toEqual([
      "cash",
      "bank_transfer",
    ]);
  });
});

describe("the payment chooser", () => {
  const listing = {
    id: "33333333-3333-4333-8333-333333333333",
    title: "Brio togbane",
    price: 1250,
    is_free: false,
    payment_enabled: true,
    pricing_mode: "marketplace" as const,
  };

  function open() {
    const onOpenChange = vi.fn();
    const view = renderWithProviders(<PaymentChooser listing={listing} open onOpenChange={onOpenChange} />);
    return { ...view, onOpenChange, user: userEvent.setup() };
  }

  it("starts a card checkout priced by the server and opens the provider's page in the same window", async () => {
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => undefined);
    const fetch = mockFetch(() => jsonResponse({ payment_id: "p", url: "http://sandbox.test/c/pay/cs_test_1" }, 201));
    const { user } = open();
    const dialog = screen.getByRole("dialog", { name: "Velg betalingsmåte" });
    expect(
      within(dialog)
        .getAllByRole("radio")
        .map((r) => r.closest("label")!.textContent),
    ).toEqual([
      expect.stringContaining("Kort, Apple Pay eller Google Pay"),
      expect.stringContaining("Vipps"),
      expect.stringContaining("Kontant ved henting"),
      expect.stringContaining("Bankoverføring"),
    ]);
    await user.click(within(dialog).getByRole("button", { name: /Gå til betaling – 1\s250 kr/ }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("http://sandbox.test/c/pay/cs_test_1"));
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe("/api/payments/checkout");
    expect(JSON.parse(String(init?.body))).toEqual({ listing_id: listing.id, method: "card" });
    expect(toast.toastSuccess).toHaveBeenCalledWith("Betaling startet");
  });

  it("Vipps is started with method vipps", async () => {
    vi.spyOn(browser, "assign").mockImplementation(() => undefined);
    const fetch = mockFetch(() => jsonResponse({ payment_id: "p", url: "http://sandbox.test/vipps/landing?token=t" }, 201));
    const { user } = open();
    await user.click(screen.getByRole("radio", { name: /Vipps/ }));
    await user.click(screen.getByRole("button", { name: /Gå til betaling/ }));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toMatchObject({ method: "vipps" });
  });

  it("a refusal shows the server's reason; a provider failure shows the spec's text", async () => {
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => undefined);
    mockFetch(() => apiError(409, "Annonsen er allerede solgt"));
    const first = open();
    await first.user.click(screen.getByRole("button", { name: /Gå til betaling/ }));
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Feil ved betaling", "Annonsen er allerede solgt", { error: expect.anything() }),
    );
    first.unmount();

    mockFetch(() => apiError(502, "Kunne ikke starte betalingsprosessen. Prøv igjen.", "PROVIDER_ERROR"));
    const second = open();
    await second.user.click(screen.getByRole("button", { name: /Gå til betaling/ }));
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenLastCalledWith("Feil ved betaling", "Kunne ikke starte betalingsprosessen. Prøv igjen.", {
        error: expect.anything(),
      }),
    );
    expect(assign).not.toHaveBeenCalled();
  });

  it("cash on pickup: 'Betalingsmetode valgt' and nothing is sent", async () => {
    const fetch = mockFetch(() => jsonResponse({}));
    const { user, onOpenChange } = open();
    await user.click(screen.getByRole("radio", { name: /Kontant ved henting/ }));
    await user.click(screen.getByRole("button", { name: "Velg" }));
    expect(toast.toastSuccess).toHaveBeenCalledWith("Betalingsmetode valgt", "Kontakt selger for videre instruksjoner.");
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(fetch).not.toHaveBeenCalled();
  });
});

const SESSION = "cs_test_abc";
const PAYMENT = "44444444-4444-4444-8444-444444444444";
const resultRoutes: RouteObject[] = [
  { path: "/payment-success", element: <PaymentSuccessPage /> },
  { path: "/betaling-fullfort", element: <PaymentDetailsPage /> },
  { path: "/chat/:id", element: <h1>Samtale</h1> },
  { path: "/", element: <h1>Forsiden</h1> },
];

function verified(overrides: Partial<VerifyResponse> = {}): VerifyResponse {
  return {
    status: "completed",
    amount_paid: 125000,
    currency: "NOK",
    order_id: "55555555-5555-4555-8555-555555555555",
    session_id: SESSION,
    listing_id: "l",
    conversation_id: "66666666-6666-4666-8666-666666666666",
    role: "buyer",
    ...overrides,
  };
}

describe("/payment-success", () => {
  it("fails at once without session_id or payment_id, asking nothing", async () => {
    const fetch = mockFetch(() => jsonResponse({}));
    renderRoutes(resultRoutes, { seed: { session: sessionFor() }, path: `/payment-success?session_id=${SESSION}` });
    expect(await screen.findByRole("heading", { name: "Betalingsfeil" })).toBeInTheDocument();
    expect(screen.getByText("Noe gikk galt med betalingen")).toBeInTheDocument();
    expect(toast.toastError).toHaveBeenCalledWith(
      "Feil ved betalingsbekreftelse",
      "Kunne ikke bekrefte betalingsstatus. Kontakt support hvis du har betalt.",
      expect.anything(),
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it("verifies, then shows 'Betaling fullført!' with the amount in NOK and the order id; Kontakt selger opens the chat", async () => {
    const fetch = mockFetch(() => jsonResponse(verified()));
    const { router } = renderRoutes(resultRoutes, {
      seed: { session: sessionFor() },
      path: `/payment-success?session_id=${SESSION}&payment_id=${PAYMENT}`,
    });
    expect(screen.getByText("Bekrefter betaling...")).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "Betaling fullført!" })).toBeInTheDocument();
    expect(screen.getByText(/^1\s250,00 kr$/)).toBeInTheDocument();
    expect(screen.getByText("55555555-5555-4555-8555-555555555555")).toBeInTheDocument();
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({ session_id: SESSION, payment_id: PAYMENT });
    expect(toast.toastSuccess).toHaveBeenCalledWith("Betaling fullført!", "Din betaling er behandlet og bekreftet.", expect.anything());
    expect(screen.getByRole("link", { name: "Tilbake til forsiden" })).toHaveAttribute("href", "/");
    expect(screen.getByRole("link", { name: "Se betalingsdetaljer" })).toHaveAttribute("href", `/betaling-fullfort?session_id=${SESSION}`);
    await userEvent.click(screen.getByRole("button", { name: "Kontakt selger" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/chat/66666666-6666-4666-8666-666666666666"));
  });

  it("keeps verifying while the payment is pending", async () => {
    let calls = 0;
    mockFetch(() => jsonResponse(++calls < 2 ? verified({ status: "pending", amount_paid: null, order_id: null }) : verified()));
    renderRoutes(resultRoutes, { seed: { session: sessionFor() }, path: `/payment-success?session_id=${SESSION}&payment_id=${PAYMENT}` });
    expect(await screen.findByText("Bekrefter betaling...")).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "Betaling fullført!" }, { timeout: 5000 })).toBeInTheDocument();
    expect(calls).toBe(2);
  });

  it.each([
    ["a failed payment", () => jsonResponse(verified({ status: "failed", amount_paid: null }))],
    ["someone else's payment (404)", () => apiError(404, "Transaksjon ikke funnet", "NOT_FOUND")],
  ])("%s shows 'Betalingsfeil'", async (_name, answer) => {
    mockFetch(answer);
    renderRoutes(resultRoutes, { seed: { session: sessionFor() }, path: `/payment-success?session_id=${SESSION}&payment_id=${PAYMENT}` });
    expect(await screen.findByRole("heading", { name: "Betalingsfeil" })).toBeInTheDocument();
    expect(toast.toastError).toHaveBeenCalledWith("Feil ved betalingsbekreftelse", expect.any(String), expect.anything());
  });

  it("cancelled in Vipps: 'Betalingen ble avbrutt', no error toast, and the way back to the listing", async () => {
    mockFetch(() =>
      jsonResponse(
        verified({ status: "cancelled", amount_paid: null, order_id: null, listing_id: "33333333-3333-4333-8333-333333333333" }),
      ),
    );
    renderRoutes(resultRoutes, {
      seed: { session: sessionFor() },
      path: `/payment-success?session_id=lb-${PAYMENT}&payment_id=${PAYMENT}`,
    });
    expect(await screen.findByRole("heading", { name: "Betalingen ble avbrutt" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Betalingsfeil" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Tilbake til annonsen" })).toHaveAttribute(
      "href",
      "/listing/33333333-3333-4333-8333-333333333333",
    );
    expect(toast.toastError).not.toHaveBeenCalled();
  });

  it("Stripe's cancel_url: the same 'Betalingen ble avbrutt' at once, back to the listing by its slug, asking nothing", async () => {
    const fetch = mockFetch(() => jsonResponse({}));
    renderRoutes(resultRoutes, { seed: { session: sessionFor() }, path: "/payment-success?cancelled=1&listing=brio-togbane-3a4b5c" });
    expect(await screen.findByRole("heading", { name: "Betalingen ble avbrutt" })).toBeInTheDocument();
    expect(screen.getByText("Du har ikke betalt noe. Annonsen er der fortsatt hvis du vil prøve igjen.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Tilbake til annonsen" })).toHaveAttribute("href", "/annonse/brio-togbane-3a4b5c");
    expect(screen.getByRole("link", { name: "Tilbake til forsiden" })).toHaveAttribute("href", "/");
    expect(toast.toastError).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("without a conversation, Kontakt selger says 'Kunne ikke starte samtale med selger'", async () => {
    mockFetch(() => jsonResponse(verified({ conversation_id: null })));
    renderRoutes(resultRoutes, { seed: { session: sessionFor() }, path: `/payment-success?session_id=${SESSION}&payment_id=${PAYMENT}` });
    await userEvent.click(await screen.findByRole("button", { name: "Kontakt selger" }));
    expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke starte samtale med selger");
  });

  it("a visitor is asked to sign in", async () => {
    renderRoutes(resultRoutes, { seed: { session: null }, path: `/payment-success?session_id=${SESSION}&payment_id=${PAYMENT}` });
    expect(await screen.findByRole("heading", { name: "Du må logge inn" })).toBeInTheDocument();
  });
});

function details(overrides: Partial<PaymentDetails> = {}): PaymentDetails {
  return {
    order_id: "abcdef12-3456-4789-8abc-def012345678",
    session_id: SESSION,
    provider: "card",
    amount: 39900,
    currency: "NOK",
    paid_at: "2026-11-12T13:05:00.000Z",
    role: "buyer",
    conversation_id: "66666666-6666-4666-8666-666666666666",
    listing: { id: "l", title: "Dukkevogn", images: [], seo_slug: "dukkevogn-abc123" },
    seller: { user_id: "s", display_name: "Siri Selger" },
    order: null,
    ...overrides,
  };
}

/** The held money of the details' order (decision 105), as the Worker sends it. */
function order(overrides: Partial<NonNullable<PaymentDetails["order"]>> = {}): NonNullable<PaymentDetails["order"]> {
  return {
    order_id: "abcdef12-3456-4789-8abc-def012345678",
    state: "held",
    role: "buyer",
    amount: 39900,
    refund_amount: 0,
    paid_at: "2026-11-12T13:05:00.000Z",
    handed_over_at: null,
    release_due_at: null,
    cancel_from: "2026-11-19T13:05:00.000Z",
    settled_at: null,
    money_moved: false,
    payout_error: null,
    actions: ["confirm_received", "report_problem"],
    listing: { id: "l", title: "Dukkevogn", seo_slug: "dukkevogn-abc123" },
    conversation_id: "66666666-6666-4666-8666-666666666666",
    photos: [],
    shipment: null,
    ...overrides,
  };
}

describe("/betaling-fullfort", () => {
  it("tells the buyer the money is held, and the seller when it is paid out at the latest (decision 105)", async () => {
    mockFetch(() => jsonResponse(details({ order: order() })));
    const { unmount } = renderRoutes(resultRoutes, { seed: { session: sessionFor() }, path: `/betaling-fullfort?session_id=${SESSION}` });
    expect(await screen.findByText("Pengene holdes trygt til du har fått varen")).toBeInTheDocument();
    unmount();
    mockFetch(() =>
      jsonResponse(
        details({
          role: "seller",
          order: order({ role: "seller", state: "handed_over", release_due_at: "2026-11-14T13:05:00.000Z", actions: [] }),
        }),
      ),
    );
    renderRoutes(resultRoutes, { seed: { session: sessionFor() }, path: `/betaling-fullfort?session_id=${SESSION}` });
    expect(await screen.findByText("Pengene utbetales når kjøperen har bekreftet, senest 14. november 2026 kl. 14:05")).toBeInTheDocument();
  });

  it("shows the listing, 'Betalt', the amount, the short order id, the paid time and the seller card", async () => {
    mockFetch((url) =>
      url === `/api/payments/details?session_id=${SESSION}` ? jsonResponse(details()) : apiError(404, "Ikke funnet", "NOT_FOUND"),
    );
    renderRoutes(resultRoutes, { seed: { session: sessionFor() }, path: `/betaling-fullfort?session_id=${SESSION}` });
    expect(await screen.findByRole("heading", { level: 1, name: "Betalingsdetaljer" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Dukkevogn" })).toHaveAttribute("href", "/annonse/dukkevogn-abc123");
    expect(screen.getByText("Betalt", { selector: "span" })).toBeInTheDocument();
    expect(screen.getByText(/^399,00 kr$/)).toBeInTheDocument();
    expect(screen.getByText("ABCDEF12")).toBeInTheDocument();
    expect(screen.getByText("12. november 2026 kl. 14:05")).toBeInTheDocument();
    const seller = screen.getByRole("region", { name: "Selger" });
    expect(within(seller).getByText("Siri Selger")).toBeInTheDocument();
    expect(within(seller).getByText("Selger har mottatt beskjed om salget")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Kontakt selger" })).toBeEnabled();
    expect(screen.getByRole("link", { name: "Tilbake til forsiden" })).toHaveAttribute("href", "/");
  });

  it("'Ukjent selger' when the seller's profile is gone", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    mockFetch(() => jsonResponse(details({ seller: null })));
    renderRoutes(resultRoutes, { seed: { session: sessionFor() }, path: `/betaling-fullfort?session_id=${SESSION}` });
    expect(await screen.findByText("Ukjent selger")).toBeInTheDocument();
    expect(warn).toHaveBeenCalled();
  });

  it.each([
    ["no session_id", "", undefined, "Ingen session ID funnet i URL"],
    ["no order", `?session_id=${SESSION}`, () => apiError(404, "Transaksjon ikke funnet", "NOT_FOUND"), "Transaksjon ikke funnet"],
    ["no listing", `?session_id=${SESSION}`, () => apiError(404, "Annonse ikke funnet", "NOT_FOUND"), "Annonse ikke funnet"],
    [
      "a server error",
      `?session_id=${SESSION}`,
      () => apiError(500, "Noe gikk galt. Prøv igjen.", "INTERNAL"),
      "Kunne ikke hente betalingsdetaljer",
    ],
  ])("%s → 'Feil'", async (_name, query, answer, message) => {
    const fetch = mockFetch(answer ?? (() => jsonResponse({})));
    renderRoutes(resultRoutes, { seed: { session: sessionFor() }, path: `/betaling-fullfort${query}` });
    expect(await screen.findByRole("heading", { name: "Feil" })).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(toast.toastError).toHaveBeenCalledWith("Feil", message, expect.anything());
    if (!answer) expect(fetch).not.toHaveBeenCalled();
  });
});
