// The held money's card in the deal's chat (decision 105): each party's words and buttons for the
// state, the confirmation before money moves, the problem form, and the Worker's refusal shown.
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { OrderView } from "../../web/api/payments";
import * as toast from "../../web/lib/toast";
import { OrderCards } from "../../web/routes/chat/OrderCards";
import { orderViewBody } from "../factories/api";
import { jsonResponse, mockFetch, renderWithProviders } from "./utils";

const CONVERSATION = "66666666-6666-4666-8666-666666666666";
const TX = "abcdef12-3456-4789-8abc-def012345678";

function order(overrides: Partial<OrderView> = {}): OrderView {
  return orderViewBody({ order_id: TX, cancel_from: "2099-11-19T13:05:00.000Z", conversation_id: CONVERSATION, ...overrides });
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
    expect(JSON.parse(String(post![1]!.body))).toEqual({ reason: "damaged", text: "Hjulet er knekt av.", photos: [] });
    await vi.waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Feil", "Pengene er allerede utbetalt til selger.", { error: expect.anything() }),
    );
  });

  it("the problem dialog's photo picker: up to 4, JPEG/PNG/WebP only, removable; sent photos are uploaded, then named by the report", async () => {
    let n = 0;
    URL.createObjectURL = vi.fn(() => `blob:test/${++n}`);
    URL.revokeObjectURL = vi.fn();
    const uploads: Blob[] = [];
    const fetch = mockFetch((url, init) => {
      if (init?.method === "POST" && String(url).endsWith("/photos")) {
        uploads.push(init.body as Blob);
        return jsonResponse({ id: `0000000${uploads.length}-0000-4000-8000-000000000000`, url: "/x", type: "image/jpeg" }, 201);
      }
      if (init?.method === "POST") return jsonResponse(order({ state: "problem", actions: [] }));
      return jsonResponse([order()]);
    });
    renderWithProviders(<OrderCards conversationId={CONVERSATION} />);
    await userEvent.click(await screen.findByRole("button", { name: "Meld fra om et problem" }));
    const dialog = screen.getByRole("dialog", { name: "Meld fra om et problem" });
    expect(dialog).toHaveTextContent("Bilder (valgfritt)");
    const input = screen.getByLabelText("Legg ved bilder");
    const file = (name: string, type: string) => new File([new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3])], name, { type });
    // A GIF is refused with the server's own words; the JPEGs are kept, with previews.
    await userEvent.upload(input, [file("kjole.gif", "image/gif"), file("hjul.jpg", "image/jpeg"), file("eske.png", "image/png")], {
      applyAccept: false,
    });
    expect(screen.getByRole("alert")).toHaveTextContent("kjole.gif: Kun JPEG, PNG og WebP er tillatt");
    expect(screen.getByRole("list", { name: "Valgte bilder (2 av 4)" })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Bilde 1: hjul.jpg" })).toHaveAttribute("src", "blob:test/1");
    // Three more: only two fit, and it says so.
    await userEvent.upload(input, [file("a.jpg", "image/jpeg"), file("b.jpg", "image/jpeg"), file("c.jpg", "image/jpeg")]);
    expect(screen.getByRole("alert")).toHaveTextContent("Du kan legge ved opptil 4 bilder.");
    expect(screen.getByRole("list", { name: "Valgte bilder (4 av 4)" })).toBeInTheDocument();
    expect(screen.getByLabelText("Du har lagt ved 4 bilder")).toBeDisabled();
    await userEvent.click(screen.getByRole("button", { name: "Fjern bilde 4" }));
    expect(screen.getByRole("list", { name: "Valgte bilder (3 av 4)" })).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();

    await userEvent.type(screen.getByLabelText("Beskriv problemet"), "Hjulet er knekt av.");
    await userEvent.click(screen.getByRole("button", { name: "Send" }));
    await vi.waitFor(() => expect(fetch.mock.calls.some(([url]) => String(url).endsWith("/problem"))).toBe(true));
    const posts = fetch.mock.calls.filter(([, init]) => init?.method === "POST").map(([url]) => String(url));
    expect(posts).toEqual([
      `/api/payments/orders/${TX}/photos`,
      `/api/payments/orders/${TX}/photos`,
      `/api/payments/orders/${TX}/photos`,
      `/api/payments/orders/${TX}/problem`,
    ]);
    expect(uploads.map((b) => (b as File).name)).toEqual(["hjul.jpg", "eske.png", "a.jpg"]);
    const report = fetch.mock.calls.find(([url]) => String(url).endsWith("/problem"))!;
    expect(JSON.parse(String(report[1]!.body)).photos).toEqual([
      "00000001-0000-4000-8000-000000000000",
      "00000002-0000-4000-8000-000000000000",
      "00000003-0000-4000-8000-000000000000",
    ]);
  });

  it("both parties see the report's photos on the card: thumbnails with Norwegian alt texts that open larger", async () => {
    const photos = [
      { id: "p1", url: `/api/payments/orders/${TX}/photos/p1` },
      { id: "p2", url: `/api/payments/orders/${TX}/photos/p2` },
    ];
    mockFetch(() => jsonResponse([order({ role: "seller", state: "problem", actions: [], photos })]));
    renderWithProviders(<OrderCards conversationId={CONVERSATION} />);
    const thumbs = await screen.findByRole("list", { name: "Bilder fra kjøperen" });
    expect(thumbs.querySelectorAll("img")[1]).toHaveAttribute("alt", "Bilde 2 av 2 fra kjøperen");
    await userEvent.click(screen.getByRole("button", { name: "Vis bilde 2 av 2 fra kjøperen større" }));
    const large = screen.getByRole("dialog", { name: "Bilde 2 av 2 fra kjøperen" });
    expect(large.querySelector("img")).toHaveAttribute("src", `/api/payments/orders/${TX}/photos/p2`);
  });

  it("settled: what is owed after a refused transfer; each state said once; one line that opens to the photos", async () => {
    mockFetch(() =>
      jsonResponse([
        order({ role: "seller", state: "released", money_moved: true, actions: [] }),
        order({
          order_id: "33333333-3333-4333-8333-333333333333",
          role: "seller",
          state: "released",
          actions: [],
          payout_error: "Stripe-kontoen din kan ikke ta imot utbetalinger.",
          listing: { id: "o", title: "Gyngehest", seo_slug: "g" },
        }),
        order({
          order_id: "11111111-1111-4111-8111-111111111111",
          state: "refunded",
          refund_amount: 30000,
          actions: [],
          listing: { id: "m", title: "Dukkehus", seo_slug: "d" },
          photos: [{ id: "p1", url: `/api/payments/orders/${TX}/photos/p1` }],
        }),
        order({
          order_id: "22222222-2222-4222-8222-222222222222",
          state: "partially_refunded",
          refund_amount: 10000,
          actions: [],
          listing: { id: "n", title: "Sparkesykkel", seo_slug: "s" },
        }),
      ]),
    );
    renderWithProviders(<OrderCards conversationId={CONVERSATION} />);
    const paid = await screen.findByRole("article", { name: "Trygg betaling: Trehest" });
    const refunded = screen.getByRole("article", { name: "Trygg betaling: Dukkehus" });
    expect(within(paid).getAllByText("Utbetalt til selger")).toHaveLength(1);
    expect(within(refunded).getAllByText("Pengene er betalt tilbake")).toHaveLength(1);
    // A payout that failed stays open: the seller has to act on it.
    expect(screen.getByRole("article", { name: "Trygg betaling: Gyngehest" })).toHaveTextContent(
      "Vi kunne ikke utbetale pengene: Stripe-kontoen din kan ikke ta imot utbetalinger.",
    );
    // Settled, the photos wait behind the card's one line (the strip keeps room for the review
    // prompt); the line is its only button.
    const line = within(refunded).getByRole("button", { expanded: false });
    expect(within(refunded).getAllByRole("button")).toEqual([line]);
    expect(within(refunded).queryByRole("img", { name: "Bilde 1 av 1 fra kjøperen" })).not.toBeInTheDocument();
    await userEvent.click(line);
    expect(within(refunded).getByRole("img", { name: "Bilde 1 av 1 fra kjøperen" })).toBeVisible();
    // Where the words say more than the badge, both stay.
    const partly = screen.getByRole("article", { name: "Trygg betaling: Sparkesykkel" });
    expect(within(partly).getByText("Delvis betalt tilbake")).toBeInTheDocument();
    expect(within(partly).getByText("Pengene er betalt tilbake (100,00 kr)")).toBeInTheDocument();
  });
});
