// Payments in the profile and the listing form: the profile's payments section (Stripe for
// sellers), its purchases and sales, and the listing form's payment settings.
import { useQuery } from "@tanstack/react-query";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { FormProvider, useForm } from "react-hook-form";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { SellerPaymentStatus, PaymentRecord } from "../../domain/payments";
import { browser, sellerPaymentStatusQuery } from "../../web/api/payments";
import { emptyListingForm, type ListingFormValues } from "../../web/components/listing-form/ListingFields";
import { PaymentFields } from "../../web/components/listing-form/PaymentFields";
import { PaymentsSection } from "../../web/routes/profile/PaymentsSection";
import { PurchasesAndSalesSection } from "../../web/routes/profile/PurchasesAndSalesSection";
import { jsonResponse, mockFetch, renderWithProviders } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

const apiError = (status: number, message: string, code = "CONFLICT") => jsonResponse({ error: { code, message } }, status);

function status(overrides: Partial<SellerPaymentStatus> = {}): SellerPaymentStatus {
  return { connected: false, details_submitted: false, charges_enabled: false, payouts_enabled: false, ...overrides };
}

describe("the profile's payments section", () => {
  it("'Koble til Stripe' sends the browser to Stripe's onboarding", async () => {
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => undefined);
    const fetch = mockFetch((url, init) =>
      url === "/api/payments/stripe/account-link" && init?.method === "POST"
        ? jsonResponse({ url: "http://sandbox.test/connect/onboarding/x" })
        : jsonResponse(status()),
    );
    renderWithProviders(<PaymentsSection />);
    await userEvent.click(await screen.findByRole("button", { name: "Koble til Stripe" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("http://sandbox.test/connect/onboarding/x"));
    expect(fetch.mock.calls.some(([u]) => u === "/api/payments/stripe/account-link")).toBe(true);
  });

  it("a failure says 'Kunne ikke koble til Stripe. Prøv igjen.'", async () => {
    mockFetch((url) => (url === "/api/payments/stripe/account-link" ? apiError(502, "x", "PROVIDER_ERROR") : jsonResponse(status())));
    renderWithProviders(<PaymentsSection />);
    await userEvent.click(await screen.findByRole("button", { name: "Koble til Stripe" }));
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke koble til Stripe. Prøv igjen.", { error: expect.anything() }),
    );
  });

  it("an unfinished account offers to finish the registration", async () => {
    mockFetch(() => jsonResponse(status({ connected: true })));
    renderWithProviders(<PaymentsSection />);
    expect(await screen.findByRole("button", { name: "Fullfør registreringen hos Stripe" })).toBeInTheDocument();
  });

  it("a connected seller sees whether payouts are enabled and opens the Express dashboard in a new tab", async () => {
    const tab = { opener: {}, location: { href: "" }, close: vi.fn() };
    const openTab = vi.spyOn(window, "open").mockImplementation(() => tab as unknown as Window);
    mockFetch((url) =>
      url === "/api/payments/stripe/dashboard-link"
        ? jsonResponse({ url: "http://sandbox.test/express/acct_1/t" })
        : jsonResponse(status({ connected: true, details_submitted: true, charges_enabled: true, payouts_enabled: true })),
    );
    renderWithProviders(<PaymentsSection />);
    expect(await screen.findByText("Utbetalinger er aktivert")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: /Åpne Stripe-dashbord/ }));
    expect(openTab).toHaveBeenCalledWith("", "_blank");
    await waitFor(() => expect(tab.location.href).toBe("http://sandbox.test/express/acct_1/t"));
    expect(tab.opener).toBeNull();
  });

  it("payouts not enabled yet are said plainly", async () => {
    mockFetch(() => jsonResponse(status({ connected: true, details_submitted: true, charges_enabled: true, payouts_enabled: false })));
    renderWithProviders(<PaymentsSection />);
    expect(await screen.findByText("Utbetalinger er ikke aktivert ennå")).toBeInTheDocument();
  });
});

describe("the profile's purchases and sales", () => {
  const record = (overrides: Partial<PaymentRecord> = {}): PaymentRecord => ({
    order_id: "77777777-7777-4777-8777-777777777777",
    session_id: "cs_test_sale",
    provider: "vipps",
    amount: 25000,
    currency: "NOK",
    paid_at: "2026-11-12T13:05:00.000Z",
    listing: { id: "l", title: "Sparkesykkel", images: [], seo_slug: "sparkesykkel" },
    counterpart_name: "Ola",
    conversation_id: "88888888-8888-4888-8888-888888888888",
    seller_payout: "owed",
    state: "released",
    release_due_at: null,
    refund_amount: 0,
    money_moved: true,
    ...overrides,
  });

  it("lists purchases and sales with details and conversation links", async () => {
    mockFetch((url) => (url === "/api/payments/purchases" ? jsonResponse([]) : jsonResponse([record()])));
    renderWithProviders(<PurchasesAndSalesSection />);
    expect(await screen.findByRole("tab", { name: "Mine kjøp (0)" })).toBeInTheDocument();
    expect(await screen.findByText("Ingen kjøp ennå.")).toBeInTheDocument();
    await userEvent.click(await screen.findByRole("tab", { name: "Mine salg (1)" }));
    expect(screen.getByText("Sparkesykkel")).toBeInTheDocument();
    expect(screen.getByText(/250,00 kr · Vipps · 12\. november 2026/)).toBeInTheDocument();
    expect(screen.getByText("Kjøper: Ola")).toBeInTheDocument();
    expect(screen.getByText("Vipps-beløpet utbetales til deg av Lekebytte.")).toBeInTheDocument();
    // The held money's state (decision 105).
    expect(screen.getByText("Utbetalt til selger")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Betalingsdetaljer for Sparkesykkel" })).toHaveAttribute(
      "href",
      "/betaling-fullfort?session_id=cs_test_sale",
    );
    expect(screen.getByRole("link", { name: "Samtale om Sparkesykkel" })).toHaveAttribute(
      "href",
      "/chat/88888888-8888-4888-8888-888888888888",
    );
  });
});

describe("the listing form's payment settings", () => {
  /** Renders once the seller's status has arrived, in the same commit as PaymentFields' own update. */
  function Loaded() {
    const { data } = useQuery(sellerPaymentStatusQuery());
    return data ? <p>status lastet</p> : null;
  }

  function Form({ values }: { values: Partial<ListingFormValues> }) {
    const form = useForm<ListingFormValues>({ defaultValues: { ...emptyListingForm(), ...values } });
    return (
      <FormProvider {...form}>
        <PaymentFields />
        <Loaded />
      </FormProvider>
    );
  }

  it("are hidden for a seller who cannot take payments", async () => {
    mockFetch(() => jsonResponse(status({ connected: true })));
    renderWithProviders(<Form values={{}} />);
    await screen.findByText("status lastet");
    expect(screen.queryByRole("checkbox", { name: "Ta imot betaling i Lekebytte" })).not.toBeInTheDocument();
  });

  it("offer payment on or off and the three modes to a connected seller, and hide for a free listing", async () => {
    mockFetch(() => jsonResponse(status({ connected: true, details_submitted: true, charges_enabled: true, payouts_enabled: true })));
    const { unmount } = renderWithProviders(<Form values={{}} />);
    const box = await screen.findByRole("checkbox", { name: "Ta imot betaling i Lekebytte" });
    expect(box).toBeChecked();
    expect(screen.getByRole("radio", { name: "Kort og Vipps" })).toBeChecked();
    expect(screen.getByRole("radio", { name: "Kun kort (Stripe)" })).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Kun Vipps" })).toBeInTheDocument();
    await userEvent.click(box);
    expect(screen.queryByRole("radio", { name: "Kun Vipps" })).not.toBeInTheDocument();
    unmount();
    renderWithProviders(<Form values={{ is_free: true }} />);
    await screen.findByText("status lastet");
    expect(screen.queryByRole("checkbox", { name: "Ta imot betaling i Lekebytte" })).not.toBeInTheDocument();
  });
});
