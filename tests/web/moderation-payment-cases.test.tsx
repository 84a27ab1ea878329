// "Betalingssaker" on /moderation (decisions 085, 105, 108): no buttons where the server would
// refuse, the buyer's photos, and the question before a decision that cannot be undone.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ModerationPage as Page } from "../../web/api/moderation";
import type { PaymentCase } from "../../web/api/payments";
import { ModerationPage } from "../../web/routes/moderation/ModerationPage";
import { bodyOf, method, mockApi, type Route } from "./listingHelpers";
import { orderViewBody, TEST_USER_ID } from "../factories/api";
import { jsonResponse, renderRoutes, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

const routes = [{ path: "/moderation", element: <ModerationPage /> }];
const page = (items: Page["items"]): Page => ({ items, has_more: false, next_offset: null });

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

describe("Betalingssaker (decisions 085, 105, 108)", () => {
  const OTHER = "44444444-4444-4444-8444-444444444444";
  const TX = "abcdef12-3456-4789-8abc-def012345678";
  const paymentCase = (
    buyer: { id: string; role: "user" | "moderator" | "admin" },
    seller: { id: string; role: "user" | "moderator" | "admin" },
  ): PaymentCase => ({
    ...orderViewBody({
      order_id: TX,
      state: "problem",
      role: "moderator",
      actions: ["refund", "partial_refund", "release_by_moderator"],
      listing: { id: "l", title: "Lekekjøkken i tre", seo_slug: "lekekjokken" },
      conversation_id: null,
      photos: [{ id: "p1", url: `/api/payments/orders/${TX}/photos/p1` }],
    }),
    problem_reason: "damaged",
    problem_text: "Døren på kjøleskapet er knekt.",
    problem_at: "2026-11-13T10:00:00.000Z",
    provider: "vipps",
    buyer: { ...buyer, display_name: "Kari Kjøper" },
    seller: { ...seller, display_name: "Siri Selger" },
    messages: [],
  });

  async function openCase(viewerRole: "moderator" | "admin", item: PaymentCase, ...extra: Route[]) {
    mockApi(...extra, (url) =>
      url.startsWith("/api/moderation/reports?")
        ? jsonResponse(page([]))
        : url === "/api/moderation/payment-cases"
          ? jsonResponse([item])
          : url === "/api/moderation/staff"
            ? jsonResponse([])
            : undefined,
    );
    renderRoutes(routes, { seed: { session: sessionFor(viewerRole) }, path: "/moderation" });
    return screen.findByRole("article", { name: "Betalingssak: Lekekjøkken i tre" });
  }

  it.each([
    [
      "the seller is a moderator",
      "moderator",
      { id: OTHER, role: "user" },
      { id: "s", role: "moderator" },
      "Bare en administrator kan avgjøre en sak der kjøperen eller selgeren er moderator eller administrator.",
    ],
    [
      "the buyer is an admin",
      "moderator",
      { id: OTHER, role: "admin" },
      { id: "s", role: "user" },
      "Bare en administrator kan avgjøre en sak der kjøperen eller selgeren er moderator eller administrator.",
    ],
    [
      "the moderator is the buyer",
      "moderator",
      { id: TEST_USER_ID, role: "moderator" },
      { id: "s", role: "user" },
      "Du kan ikke avgjøre en sak du selv er part i.",
    ],
    [
      "the admin is the seller",
      "admin",
      { id: OTHER, role: "user" },
      { id: TEST_USER_ID, role: "admin" },
      "Du kan ikke avgjøre en sak du selv er part i.",
    ],
  ] as const)("%s: no buttons where the server would refuse, only why", async (_name, viewerRole, buyer, seller, why) => {
    const article = await openCase(viewerRole, paymentCase(buyer, seller));
    expect(within(article).getByText(why)).toBeInTheDocument();
    expect(within(article).queryByRole("button", { name: "Betal tilbake alt" })).toBeNull();
    expect(within(article).queryByRole("button", { name: "Utbetal til selger" })).toBeNull();
  });

  it("the case's conversation opens under 'Samtalen (n)' as a list reached with Tab (a long one scrolls)", async () => {
    const item = {
      ...paymentCase({ id: OTHER, role: "user" }, { id: "s", role: "user" }),
      messages: [
        { id: "m1", sender: "buyer", content: "Døren er knekt.", created_at: "2026-11-13T10:00:00.000Z" },
        { id: "m2", sender: "seller", content: "Den var hel da jeg sendte den.", created_at: "2026-11-13T10:05:00.000Z" },
      ],
    } satisfies PaymentCase;
    const article = await openCase("moderator", item);
    await userEvent.click(within(article).getByText("Samtalen (2)"));
    const list = within(article).getByRole("list", { name: "Meldinger i samtalen" });
    expect(list).toHaveAttribute("tabindex", "0");
    expect(list).toHaveTextContent("Kjøper: Døren er knekt.");
    expect(list).toHaveTextContent("Selger: Den var hel da jeg sendte den.");
  });

  it("an admin decides a case with a moderator seller; the buyer's photo opens larger", async () => {
    const article = await openCase("admin", paymentCase({ id: OTHER, role: "user" }, { id: "s", role: "moderator" }));
    expect(within(article).getByRole("button", { name: "Betal tilbake alt" })).toBeInTheDocument();
    expect(within(article).getByRole("img", { name: "Bilde 1 av 1 fra kjøperen" })).toHaveAttribute(
      "src",
      `/api/payments/orders/${TX}/photos/p1`,
    );
    await userEvent.click(within(article).getByRole("button", { name: "Vis bilde 1 av 1 fra kjøperen større" }));
    expect(screen.getByRole("dialog", { name: "Bilde 1 av 1 fra kjøperen" }).querySelector("img")).toHaveAttribute(
      "src",
      `/api/payments/orders/${TX}/photos/p1`,
    );
  });

  it.each([
    ["Betal tilbake alt", "Betale tilbake hele beløpet?", "Kjøperen får 300,00 kr tilbake. Dette kan ikke angres.", { action: "refund" }],
    [
      "Utbetal til selger",
      "Utbetale til selger?",
      "Selgeren får 300,00 kr utbetalt. Dette kan ikke angres.",
      { action: "release_by_moderator" },
    ],
  ] as const)(
    "'%s' asks first (it cannot be undone): 'Avbryt' sends nothing, the answer sends the decision",
    async (label, question, body, sent) => {
      const decisions: unknown[] = [];
      const item = paymentCase({ id: OTHER, role: "user" }, { id: "s", role: "user" });
      const article = await openCase("moderator", item, (url, init) => {
        if (url !== `/api/moderation/payment-cases/${TX}/decision` || method(init) !== "POST") return undefined;
        decisions.push(bodyOf(init));
        return jsonResponse({ ...item, state: "refunded", actions: [] });
      });
      const user = userEvent.setup();
      await user.click(within(article).getByRole("button", { name: label }));
      const dialog = screen.getByRole("alertdialog", { name: question });
      expect(dialog).toHaveAccessibleDescription(body);
      // The safe answer has the focus, and takes nothing away.
      expect(within(dialog).getByRole("button", { name: "Avbryt" })).toHaveFocus();
      await user.click(within(dialog).getByRole("button", { name: "Avbryt" }));
      expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
      expect(decisions).toEqual([]);
      // Asked again and answered with the action's own words.
      await user.click(within(article).getByRole("button", { name: label }));
      await user.click(within(screen.getByRole("alertdialog", { name: question })).getByRole("button", { name: label }));
      await waitFor(() => expect(decisions).toEqual([sent]));
    },
  );
});
