// "Sending" in the buy dialog (decision 145): "Henting" or "Sending" first, trygg betaling only with
// "Sending", the offers for the listing's size, the recipient prefilled from the buyer's profile, the
// nearest pickup points (loading, failed, empty), the summary, and the checkout's refusals shown at
// their fields. The Worker is mocked.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { PickupPointView } from "../../domain/carriers";
import { browser } from "../../web/api/payments";
import PaymentChooser, { type ChooserListing } from "../../web/routes/listing/payment/PaymentChooser";
import { profileBody } from "../factories/api";
import { jsonResponse, mockFetch, renderWithProviders } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

const LISTING: ChooserListing = {
  id: "33333333-3333-4333-8333-333333333333",
  title: "Brio togbane",
  price: 1250,
  is_free: false,
  payment_enabled: true,
  pricing_mode: "marketplace",
  handover: ["in_person", "shipping"],
  parcel_size: "medium",
};

const point = (n: number, overrides: Partial<PickupPointView> = {}): PickupPointView => ({
  id: `pp-${n}`,
  name: `Pakkeautomat ${n}`,
  kind: "locker",
  address: `Storgata ${n}`,
  postal_code: "0155",
  city: "OSLO",
  opening_hours: "Alle dager 07–23",
  distance_km: n * 0.4,
  ...overrides,
});

const CHECKOUT = { payment_id: "p", url: "http://sandbox.test/c/pay/cs_test_1" };
type Answer = (url: string, init: RequestInit | undefined) => Response | undefined | Promise<Response | undefined>;

/** The dialog's requests: the buyer's profile, the pickup points and the checkout, `answer` first. */
function api(answer: Answer = () => undefined, me = profileBody({ display_name: "Kari Nordmann", street_address: "Storgata 12B" })) {
  return mockFetch(async (url, init) => {
    const given = await answer(url, init);
    if (given) return given;
    if (url === "/api/me") return jsonResponse(me);
    if (url.startsWith("/api/shipping/pickup-points?")) return jsonResponse({ pickup_points: [point(1), point(2), point(3)] });
    if (url === "/api/payments/checkout") return jsonResponse(CHECKOUT, 201);
    return jsonResponse({ error: { code: "NOT_FOUND", message: "Ikke funnet" } }, 404);
  });
}

const checkoutBody = (fetch: ReturnType<typeof mockFetch>) => {
  const call = fetch.mock.calls.find(([url]) => url === "/api/payments/checkout");
  return call ? (JSON.parse(String(call[1]?.body)) as Record<string, unknown>) : undefined;
};
const pickupCalls = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls.filter(([url]) => String(url).startsWith("/api/shipping/pickup-points")).map(([url]) => String(url));

/** The dialog, with its "Sending" part loaded (it loads on its own, only for a listing that can be sent). */
async function open(listing: ChooserListing = LISTING) {
  const user = userEvent.setup();
  const view = renderWithProviders(<PaymentChooser listing={listing} open onOpenChange={vi.fn()} />);
  if (listing.parcel_size) await screen.findByRole("group", { name: "Hvordan vil du få leken?" });
  return { ...view, user, dialog: screen.getByRole("dialog", { name: "Velg betalingsmåte" }) };
}

const radioNames = (group: HTMLElement) =>
  within(group)
    .getAllByRole("radio")
    .map((r) => r.closest("label")!.textContent);

async function chooseSending(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole("radio", { name: /^Sending/ }));
  // Prefilled once the profile is in.
  await waitFor(() => expect(screen.getByLabelText("Navn")).toHaveValue("Kari Nordmann"));
}

describe("the buy dialog with 'Sending'", () => {
  it("a listing picked up only asks nothing about shipping and loads nothing more", async () => {
    const fetch = api();
    await open({ ...LISTING, handover: ["in_person"], parcel_size: null });
    expect(screen.queryByRole("group", { name: "Hvordan vil du få leken?" })).not.toBeInTheDocument();
    expect(screen.getAllByRole("radio")).toHaveLength(4);
    expect(screen.getByRole("button", { name: /Gå til betaling – 1\s250 kr/ })).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("'Henting' or 'Sending' first; 'Henting' offers all four methods, 'Sending' card and Vipps only", async () => {
    api();
    const { user } = await open();
    const how = screen.getByRole("group", { name: "Hvordan vil du få leken?" });
    expect(radioNames(how)).toEqual([expect.stringMatching(/^Henting/), expect.stringMatching(/^Sending.*frakt fra 89\s?kr/)]);
    expect(
      within(how)
        .getAllByRole("radio")
        .filter((r) => (r as HTMLInputElement).checked),
    ).toHaveLength(0);
    expect(screen.queryByRole("button", { name: /Gå til betaling/ })).not.toBeInTheDocument();

    await user.click(within(how).getByRole("radio", { name: /^Henting/ }));
    expect(radioNames(screen.getByRole("group", { name: "Betalingsmåte" }))).toEqual([
      expect.stringContaining("Kort, Apple Pay eller Google Pay"),
      expect.stringContaining("Vipps"),
      expect.stringContaining("Kontant ved henting"),
      expect.stringContaining("Bankoverføring"),
    ]);
    await user.click(screen.getByRole("radio", { name: /Kontant ved henting/ }));
    expect(screen.queryByRole("group", { name: "Frakt" })).not.toBeInTheDocument();

    await chooseSending(user);
    const methods = screen.getByRole("group", { name: "Betalingsmåte" });
    expect(radioNames(methods)).toEqual([expect.stringContaining("Kort, Apple Pay eller Google Pay"), expect.stringContaining("Vipps")]);
    // Cash was chosen for "Henting": "Sending" falls back to the first online method.
    expect(within(methods).getByRole("radio", { name: /Kort/ })).toBeChecked();
    expect(methods).toHaveTextContent("Sending betales med trygg betaling: kort eller Vipps.");
  });

  it("lists the offers for the listing's size, cheapest first, with carrier, method, price and lead time", async () => {
    api();
    const { user } = await open();
    await chooseSending(user);
    const offers = screen.getByRole("group", { name: "Frakt" });
    expect(radioNames(offers).map((t) => t!.replace(/\s/g, " "))).toEqual([
      "Posten · Pakkeautomat2–5 virkedager89 kr",
      "Posten · I postkassen2–4 virkedager99 kr",
      "Posten · Hentested2–5 virkedager99 kr",
      "Helthjem · Hentested2–5 virkedager99 kr",
    ]);
    expect(within(offers).getByRole("radio", { name: /Posten · Pakkeautomat/ })).toBeChecked();
  });

  it("prefills name, street address and postal code from the buyer's profile, never over what the buyer typed", async () => {
    let release!: () => void;
    const profileIn = new Promise<void>((resolve) => (release = resolve));
    api(async (url) => {
      if (url !== "/api/me") return undefined;
      await profileIn;
      return undefined;
    });
    const { user } = await open();
    await user.click(screen.getByRole("radio", { name: /^Sending/ }));
    await user.type(screen.getByLabelText("Navn"), "Ola");
    release();
    await waitFor(() => expect(screen.getByLabelText("Gateadresse")).toHaveValue("Storgata 12B"));
    expect(screen.getByLabelText("Navn")).toHaveValue("Ola");
    expect(screen.getByLabelText("Postnummer")).toHaveValue("0155");
    expect(screen.getByLabelText("Mobilnummer")).toHaveValue("");
    expect(screen.getByLabelText("Mobilnummer")).toHaveAttribute("type", "tel");
    expect(screen.getByRole("group", { name: "Hvor skal pakken?" })).toBeInTheDocument();
  });

  it("mailbox: 'Leken', 'Frakt', 'Totalt'; 'Gå til betaling – {totalt}' sends the checkout with the shipping", async () => {
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => undefined);
    const fetch = api();
    const { user } = await open();
    await chooseSending(user);
    await user.click(screen.getByRole("radio", { name: /Posten · I postkassen/ }));
    expect(screen.queryByRole("group", { name: /Velg (pakkeautomat|hentested)/ })).not.toBeInTheDocument();
    await user.type(screen.getByLabelText("Mobilnummer"), "912 34 567");
    await user.click(screen.getByRole("radio", { name: /Vipps/ }));
    const summary = screen.getByText("Totalt").closest("dl")!;
    expect(summary.textContent!.replace(/\s/g, " ")).toBe("Leken1 250 krFrakt99 krTotalt1 349 kr");
    await user.click(screen.getByRole("button", { name: /^Gå til betaling – 1\s349 kr$/ }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(CHECKOUT.url));
    expect(checkoutBody(fetch)).toEqual({
      listing_id: LISTING.id,
      method: "vipps",
      shipping: {
        carrier: "bring",
        delivery: "mailbox",
        pickup_point_id: null,
        recipient: { name: "Kari Nordmann", address_line: "Storgata 12B", postal_code: "0155", phone: "912 34 567" },
      },
    });
  });

  it("parcel locker: the nearest lockers for the typed postal code, the first chosen; another can be chosen and is sent", async () => {
    vi.spyOn(browser, "assign").mockImplementation(() => undefined);
    const fetch = api();
    const { user } = await open();
    await chooseSending(user);
    const lockers = await screen.findByRole("group", { name: "Velg pakkeautomat" });
    await within(lockers).findByRole("radio", { name: /Pakkeautomat 1/ });
    expect(radioNames(lockers)[0]!.replace(/\s/g, " ")).toBe("Pakkeautomat 1Storgata 1, 0155 OSLO0,4 km");
    expect(within(lockers).getByRole("radio", { name: /Pakkeautomat 1/ })).toBeChecked();
    expect(new URL(pickupCalls(fetch)[0], "http://x").searchParams.toString()).toBe(
      "carrier=bring&delivery=parcel_locker&postal_code=0155",
    );

    // A new postal code asks again.
    const postal = screen.getByLabelText("Postnummer");
    await user.clear(postal);
    expect(within(lockers).getByText("Skriv inn postnummeret, så viser vi pakkeautomater i nærheten.")).toBeInTheDocument();
    await user.type(postal, "5003");
    await waitFor(() => expect(pickupCalls(fetch).at(-1)).toContain("postal_code=5003"));
    await user.click(await within(lockers).findByRole("radio", { name: /Pakkeautomat 2/ }));

    await user.type(screen.getByLabelText("Mobilnummer"), "91234567");
    await user.click(screen.getByRole("button", { name: /^Gå til betaling – 1\s339 kr$/ }));
    await waitFor(() => expect(checkoutBody(fetch)).toBeDefined());
    expect(checkoutBody(fetch)!.shipping).toMatchObject({
      carrier: "bring",
      delivery: "parcel_locker",
      pickup_point_id: "pp-2",
      recipient: { postal_code: "5003" },
    });
  });

  it("pickup points: a loading state, a failure with 'Prøv igjen', and none found", async () => {
    let answer: "fail" | "points" | "none" = "fail";
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    api(async (url) => {
      if (!url.startsWith("/api/shipping/pickup-points")) return undefined;
      await slow;
      if (answer === "fail")
        return jsonResponse(
          { error: { code: "SERVICE_UNAVAILABLE", message: "Vi får ikke hentet hentestedene akkurat nå. Prøv igjen om litt." } },
          503,
        );
      return jsonResponse({ pickup_points: answer === "none" ? [] : [point(1, { name: "Kiwi Grünerløkka", kind: "manned" })] });
    });
    const { user } = await open();
    await chooseSending(user);
    await user.click(screen.getByRole("radio", { name: /Helthjem · Hentested/ }));
    const points = screen.getByRole("group", { name: "Velg hentested" });
    expect(within(points).getByRole("status")).toHaveTextContent("Henter hentesteder...");
    release();
    expect(await within(points).findByRole("alert")).toHaveTextContent("Vi får ikke hentet hentestedene akkurat nå. Prøv igjen om litt.");
    answer = "points";
    await user.click(within(points).getByRole("button", { name: "Prøv igjen" }));
    expect(await within(points).findByRole("radio", { name: /Kiwi Grünerløkka/ })).toBeChecked();

    answer = "none";
    const postal = screen.getByLabelText("Postnummer");
    await user.clear(postal);
    await user.type(postal, "9990");
    expect(
      await within(points).findByText("Fant ingen hentesteder i nærheten av 9990. Sjekk postnummeret, eller velg en annen frakt."),
    ).toBeInTheDocument();
    // Nothing to choose: the checkout is not sent, the list says why.
    await user.type(screen.getByLabelText("Mobilnummer"), "91234567");
    await user.click(screen.getByRole("button", { name: /Gå til betaling/ }));
    expect(await within(points).findByText("Velg et hentested.")).toBeInTheDocument();
    expect(points).toHaveFocus();
  });

  it("every recipient field the checkout refuses (400) is said at the field, and the focus goes to the first", async () => {
    const fields = {
      "shipping.recipient.name": "Skriv inn navnet ditt",
      "shipping.recipient.address_line": "Skriv inn gateadressen din",
      "shipping.recipient.postal_code": "Postnummer må være 4 siffer",
      "shipping.recipient.phone": "Skriv inn et norsk mobilnummer med 8 siffer",
    };
    const fetch = api(
      (url) =>
        url === "/api/payments/checkout"
          ? jsonResponse({ error: { code: "VALIDATION", message: "Skriv inn navnet ditt", fields } }, 400)
          : undefined,
      profileBody({ display_name: null, postal_code: null, street_address: null }),
    );
    const { user } = await open();
    await user.click(screen.getByRole("radio", { name: /^Sending/ }));
    await user.click(screen.getByRole("radio", { name: /Posten · I postkassen/ }));
    await user.type(screen.getByLabelText("Postnummer"), "12a");
    await user.type(screen.getByLabelText("Mobilnummer"), "1234");
    await user.click(screen.getByRole("button", { name: /Gå til betaling/ }));
    const name = screen.getByLabelText("Navn");
    await waitFor(() => expect(name).toHaveFocus());
    expect(name).toHaveAccessibleDescription("Skriv inn navnet ditt");
    expect(screen.getByLabelText("Gateadresse")).toHaveAccessibleDescription("Skriv inn gateadressen din");
    expect(screen.getByLabelText("Postnummer")).toHaveAccessibleDescription("Postnummer må være 4 siffer");
    expect(screen.getByLabelText("Mobilnummer")).toHaveAccessibleDescription("Skriv inn et norsk mobilnummer med 8 siffer");
    expect(toast.toastError).not.toHaveBeenCalled();
    expect(checkoutBody(fetch)!.shipping).toMatchObject({ recipient: { name: "", address_line: "", postal_code: "12a", phone: "1234" } });
    // Typing clears the field's refusal.
    await user.type(name, "Kari");
    expect(name).not.toHaveAttribute("aria-invalid");
    expect(screen.getByLabelText("Gateadresse")).toHaveAttribute("aria-invalid", "true");
  });

  it("the server's 400 field messages are shown at their fields (no toast); its other refusals as a toast", async () => {
    let refusal: Response = jsonResponse({}, 500);
    const fetch = api((url) => (url === "/api/payments/checkout" ? refusal : undefined));
    const { user } = await open();
    await chooseSending(user);
    await user.type(screen.getByLabelText("Mobilnummer"), "91234567");
    await within(screen.getByRole("group", { name: "Velg pakkeautomat" })).findByRole("radio", { name: /Pakkeautomat 1/ });

    // The checkout's own check names the field inside the choice; the schema's paths start at "shipping".
    const unknownPostal = "Vi finner ikke postnummeret. Sjekk at det stemmer.";
    refusal = jsonResponse(
      {
        error: {
          code: "VALIDATION",
          message: unknownPostal,
          fields: { "recipient.postal_code": unknownPostal, "shipping.recipient.phone": "Skriv inn et norsk mobilnummer med 8 siffer" },
        },
      },
      400,
    );
    await user.click(screen.getByRole("button", { name: /Gå til betaling/ }));
    const postal = screen.getByLabelText("Postnummer");
    await waitFor(() => expect(postal).toHaveFocus());
    expect(postal).toHaveAttribute("aria-invalid", "true");
    expect(postal).toHaveAccessibleDescription(unknownPostal);
    expect(screen.getByLabelText("Mobilnummer")).toHaveAccessibleDescription("Skriv inn et norsk mobilnummer med 8 siffer");
    expect(toast.toastError).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: /Gå til betaling/ })).toBeEnabled();

    // The carrier's check of the chosen point, named by its own key.
    const unknown = "Hentestedet finnes ikke i nærheten av postnummeret. Velg et annet.";
    refusal = jsonResponse({ error: { code: "VALIDATION", message: unknown, fields: { pickup_point_id: unknown } } }, 400);
    await user.click(screen.getByRole("button", { name: /Gå til betaling/ }));
    const lockers = screen.getByRole("group", { name: "Velg pakkeautomat" });
    expect(await within(lockers).findByText(unknown)).toBeInTheDocument();
    await waitFor(() => expect(lockers).toHaveFocus());
    expect(toast.toastError).not.toHaveBeenCalled();

    const notOffered = "Denne leveringen finnes ikke for pakkestørrelsen. Velg en annen.";
    refusal = jsonResponse({ error: { code: "VALIDATION", message: notOffered, fields: { delivery: notOffered } } }, 400);
    await user.click(screen.getByRole("button", { name: /Gå til betaling/ }));
    const offers = screen.getByRole("group", { name: "Frakt" });
    expect(await within(offers).findByText(notOffered)).toBeInTheDocument();
    await waitFor(() => expect(offers).toHaveFocus());
    expect(offers).toHaveAccessibleDescription(notOffered);
    expect(toast.toastError).not.toHaveBeenCalled();

    // A 400 about the rest of the checkout is the toast's, as before "Sending".
    const notThisMethod = "Denne betalingsmåten tilbys ikke for annonsen";
    refusal = jsonResponse({ error: { code: "VALIDATION", message: notThisMethod, fields: { method: notThisMethod } } }, 400);
    await user.click(screen.getByRole("button", { name: /Gå til betaling/ }));
    await waitFor(() => expect(toast.toastError).toHaveBeenCalledWith("Feil ved betaling", notThisMethod, { error: expect.anything() }));
    refusal = jsonResponse({ error: { code: "CONFLICT", message: "Selgeren sender ikke denne leken. Velg «Henting»." } }, 409);
    await user.click(screen.getByRole("button", { name: /Gå til betaling/ }));
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenLastCalledWith("Feil ved betaling", "Selgeren sender ikke denne leken. Velg «Henting».", {
        error: expect.anything(),
      }),
    );
    expect(fetch.mock.calls.filter(([url]) => url === "/api/payments/checkout")).toHaveLength(5);
  });

  it("a listing that is only 'Kan sendes' offers 'Sending' alone, chosen", async () => {
    api();
    await open({ ...LISTING, handover: ["shipping"], parcel_size: "small" });
    const how = screen.getByRole("group", { name: "Hvordan vil du få leken?" });
    expect(within(how).getAllByRole("radio")).toHaveLength(1);
    expect(within(how).getByRole("radio", { name: /^Sending/ })).toBeChecked();
    const offers = await screen.findByRole("group", { name: "Frakt" });
    // Small: Posten's locker and Helthjem's mailbox (69 kr) first.
    expect(within(offers).getAllByRole("radio", { name: /69\s?kr/ })).toHaveLength(2);
    expect(screen.getByRole("button", { name: /^Gå til betaling – 1\s319 kr$/ })).toBeInTheDocument();
  });
});
