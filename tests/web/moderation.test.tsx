// The moderation dashboard (docs/product.md "Moderation", "Validation", "Error messages"): no access for a
// user the server refuses, the empty state, a card, "Behandle" → "Moderer rapport" with "Velg en
// handling", the toasts.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ModerationCard, ModerationPage as Page } from "../../web/api/moderation";
import { ModerationPage } from "../../web/routes/moderation/ModerationPage";
import { apiError, bodyOf, method, mockApi } from "./listingHelpers";
import { TEST_USER_ID } from "../factories/api";
import { jsonResponse, renderRoutes, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

const routes = [{ path: "/moderation", element: <ModerationPage /> }];
const LISTING = "5f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f";
const REPORT = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";

function card(overrides: Partial<ModerationCard> = {}): ModerationCard {
  return {
    report_id: REPORT,
    target_type: "listing",
    target_id: LISTING,
    target_title: "Fjernstyrt bil",
    reason: "Falsk annonse",
    description: "Bildet er fra en nettbutikk",
    reporter_display_name: "Sofie Larsen",
    report_count: 2,
    status: "pending",
    priority: "urgent",
    created_at: "2026-03-05T10:00:00.000Z",
    reports: [],
    target: {
      exists: true,
      url: `/listing/${LISTING}`,
      preview: null,
      listing_status: "active",
      is_hidden: false,
      auto_hidden: false,
      hidden_reason: null,
      user: null,
    },
    ...overrides,
  };
}

const page = (items: ModerationCard[]): Page => ({ items, has_more: false, next_offset: null });

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

describe("/moderation", () => {
  it("a user the server refuses (403) is told they have no access", async () => {
    mockApi(() => apiError(403, "FORBIDDEN", "Du har ikke tilgang til dette."));
    renderRoutes(routes, { seed: { session: sessionFor("user") }, path: "/moderation" });
    expect(await screen.findByRole("heading", { level: 1, name: "Ingen tilgang" })).toBeInTheDocument();
    expect(toast.toastError).not.toHaveBeenCalled();
  });

  it("shows 'Ingen rapporter' for an empty status, and a load failure says 'Kunne ikke laste moderering-dashboard'", async () => {
    const statuses: string[] = [];
    mockApi((url) => {
      const u = new URL(url, "http://x");
      if (u.pathname !== "/api/moderation/reports") return undefined;
      statuses.push(u.searchParams.get("status")!);
      return u.searchParams.get("status") === "dismissed" ? apiError(500, "INTERNAL", "Noe gikk galt.") : jsonResponse(page([]));
    });
    const user = userEvent.setup();
    renderRoutes(routes, { seed: { session: sessionFor("moderator") }, path: "/moderation" });
    expect(await screen.findByRole("heading", { name: "Ingen rapporter" })).toBeInTheDocument();
    expect(screen.getByText("Det er ingen rapporter med status venter for øyeblikket.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Løst" }));
    expect(await screen.findByText("Det er ingen rapporter med status løst for øyeblikket.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Avvist" }));
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke laste moderering-dashboard", {
        id: "moderation-load",
        error: expect.anything(),
      }),
    );
    expect(statuses.slice(0, 2)).toEqual(["pending", "resolved"]);
  });

  it.each([
    [1, "Kari Nordmann · 1 advarsel"],
    [3, "Kari Nordmann · 3 advarsler"],
  ])("a reported user with %i warning(s) reads '%s' (singular for one)", async (warnings, text) => {
    const user: NonNullable<ModerationCard["target"]["user"]> = {
      id: "u1",
      display_name: "Kari Nordmann",
      role: "user",
      deleted: false,
      warning_count: warnings,
      suspended_until: null,
      suspension_reason: null,
    };
    mockApi((url) =>
      url.startsWith("/api/moderation/reports?") ? jsonResponse(page([card({ target: { ...card().target, user } })])) : undefined,
    );
    renderRoutes(routes, { seed: { session: sessionFor("moderator") }, path: "/moderation" });
    const article = await screen.findByRole("article");
    await userEvent.setup().click(within(article).getByRole("button", { name: /Fjernstyrt bil/ }));
    expect(within(article).getByText(text)).toBeInTheDocument();
  });

  it("two reports by one reporter on one listing are both listed with their reasons and texts (decision 083)", async () => {
    const entry = (id: string, reason: string, description: string | null, created_at: string) => ({
      id,
      reason,
      description,
      priority: "normal" as const,
      status: "pending" as const,
      reporter_display_name: "Sofie Larsen",
      created_at,
      resolution_action: null,
      moderator_notes: null,
      resolved_at: null,
    });
    const reports = [
      entry("b1c2d3e4-0000-4000-8000-000000000002", "Spam/reklame", null, "2026-03-05T10:00:00.000Z"),
      entry("b1c2d3e4-0000-4000-8000-000000000001", "Falsk annonse", "Bildet er fra en nettbutikk", "2026-03-04T09:00:00.000Z"),
    ];
    mockApi((url) =>
      url.startsWith("/api/moderation/reports?")
        ? jsonResponse(page([card({ reason: "Spam/reklame", description: null, reports })]))
        : undefined,
    );
    const user = userEvent.setup();
    renderRoutes(routes, { seed: { session: sessionFor("moderator") }, path: "/moderation" });
    const article = await screen.findByRole("article");
    await user.click(within(article).getByRole("button", { name: /Fjernstyrt bil/ }));
    const items = within(article).getAllByRole("listitem");
    expect(items.map((li) => li.textContent)).toEqual([
      "5. mars 2026 · Sofie Larsen: Spam/reklame",
      "4. mars 2026 · Sofie Larsen: Falsk annonse – Bildet er fra en nettbutikk",
    ]);
  });

  it("a card shows title, badges, count, date and reporter; 'Behandle' needs an action, then 'Handling utført'", async () => {
    const calls: { url: string; body: unknown }[] = [];
    mockApi((url, init) => {
      if (url.startsWith("/api/moderation/reports?")) return jsonResponse(page([card()]));
      if (method(init) === "POST") {
        calls.push({ url, body: bodyOf(init) });
        return jsonResponse(
          url.endsWith("/review")
            ? { reviewed: 2 }
            : { action: "hide", target_type: "listing", target_id: LISTING, resolved: 2, suspended_until: null },
        );
      }
    });
    const user = userEvent.setup();
    renderRoutes(routes, { seed: { session: sessionFor("moderator") }, path: "/moderation" });
    const article = await screen.findByRole("article");
    for (const text of ["Fjernstyrt bil", "Venter", "Haster", "2 rapporter"]) expect(within(article).getByText(text)).toBeInTheDocument();
    expect(article).toHaveTextContent("5. mars 2026 · Sofie Larsen");
    await user.click(within(article).getByRole("button", { name: /Fjernstyrt bil/ }));
    expect(within(article).getByText("Bildet er fra en nettbutikk")).toBeInTheDocument();
    expect(within(article).getByText(LISTING)).toBeInTheDocument();
    expect(within(article).getByRole("link", { name: "Åpne annonse" })).toHaveAttribute("href", `/listing/${LISTING}`);
    await user.click(within(article).getByRole("button", { name: "Behandle" }));
    const dialog = await screen.findByRole("dialog", { name: "Moderer rapport" });
    await user.click(within(dialog).getByRole("button", { name: "Utfør handling" }));
    expect(within(dialog).getByText("Velg en handling")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("radio", { name: "Skjul annonsen" }));
    await user.type(within(dialog).getByLabelText("Notater (valgfritt)"), "Kopierte bilder");
    await user.click(within(dialog).getByRole("button", { name: "Utfør handling" }));
    await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Handling utført"));
    expect(calls).toEqual([
      { url: `/api/moderation/reports/${REPORT}/review`, body: undefined },
      { url: `/api/moderation/reports/${REPORT}/actions`, body: { action: "hide", notes: "Kopierte bilder" } },
    ]);
  });

  it("dismissing says 'Rapport avvist'; a failed dismissal 'Kunne ikke avvise rapport'", async () => {
    let fail = false;
    mockApi((url, init) => {
      if (url.startsWith("/api/moderation/reports?")) return jsonResponse(page([card({ status: "reviewed" })]));
      if (url.endsWith("/dismiss") && method(init) === "POST")
        return fail ? apiError(409, "CONFLICT", "Rapporten er allerede behandlet.") : jsonResponse({ dismissed: 1 });
    });
    const user = userEvent.setup();
    renderRoutes(routes, { seed: { session: sessionFor("moderator") }, path: "/moderation" });
    const article = await screen.findByRole("article");
    await user.click(within(article).getByRole("button", { name: /Fjernstyrt bil/ }));
    await user.click(within(article).getByRole("button", { name: "Behandle" }));
    fail = true;
    await user.click(within(await screen.findByRole("dialog", { name: "Moderer rapport" })).getByRole("button", { name: "Avvis rapport" }));
    await waitFor(() => expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke avvise rapport", { error: expect.anything() }));
    fail = false;
    await user.click(within(screen.getByRole("dialog", { name: "Moderer rapport" })).getByRole("button", { name: "Avvis rapport" }));
    await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Rapport avvist"));
  });

  describe("staff on staff (decision 052): what the server refuses is not offered", () => {
    const SUSPENDED_UNTIL = "2027-11-25T10:00:00.000Z";
    /** A report on a user who is suspended, so the card could offer "Behandle" and "Opphev utestenging". */
    const userCard = (id: string, role: "user" | "moderator" | "admin") =>
      card({
        target_type: "user",
        target_id: id,
        target_title: "Ola Nordmann",
        target: {
          exists: true,
          url: null,
          preview: null,
          listing_status: null,
          is_hidden: false,
          auto_hidden: false,
          hidden_reason: null,
          user: {
            id,
            display_name: "Ola Nordmann",
            role,
            deleted: false,
            warning_count: 0,
            suspended_until: SUSPENDED_UNTIL,
            suspension_reason: "Trakassering",
          },
        },
      });
    const OTHER = "44444444-4444-4444-8444-444444444444";

    async function openCard(viewerRole: "moderator" | "admin", reported: ModerationCard) {
      mockApi((url) =>
        url.startsWith("/api/moderation/reports?")
          ? jsonResponse(page([reported]))
          : url === "/api/moderation/staff"
            ? jsonResponse([])
            : undefined,
      );
      const user = userEvent.setup();
      renderRoutes(routes, { seed: { session: sessionFor(viewerRole) }, path: "/moderation" });
      const article = await screen.findByRole("article");
      await user.click(within(article).getByRole("button", { name: /Ola Nordmann/ }));
      return article;
    }

    it.each([
      ["a moderator", "an admin", "moderator", OTHER, "admin", "Bare en administrator kan moderere moderatorer og administratorer."],
      [
        "a moderator",
        "another moderator",
        "moderator",
        OTHER,
        "moderator",
        "Bare en administrator kan moderere moderatorer og administratorer.",
      ],
      ["a moderator", "themselves", "moderator", TEST_USER_ID, "moderator", "Du kan ikke moderere deg selv eller ditt eget innhold."],
      ["an admin", "themselves", "admin", TEST_USER_ID, "admin", "Du kan ikke moderere deg selv eller ditt eget innhold."],
    ] as const)(
      "%s sees no 'Behandle' nor 'Opphev utestenging' on a report about %s, only why",
      async (_v, _t, viewerRole, id, role, why) => {
        const article = await openCard(viewerRole, userCard(id, role));
        expect(within(article).getByText(why)).toBeInTheDocument();
        expect(within(article).queryByRole("button", { name: "Behandle" })).toBeNull();
        expect(within(article).queryByRole("button", { name: "Opphev utestenging" })).toBeNull();
      },
    );

    it.each([
      ["an admin", "a moderator", "admin", "moderator"],
      ["a moderator", "an ordinary user", "moderator", "user"],
    ] as const)("%s is offered 'Behandle' and 'Opphev utestenging' on %s", async (_v, _t, viewerRole, role) => {
      const article = await openCard(viewerRole, userCard(OTHER, role));
      expect(within(article).getByRole("button", { name: "Behandle" })).toBeInTheDocument();
      expect(within(article).getByRole("button", { name: "Opphev utestenging" })).toBeInTheDocument();
      expect(within(article).queryByText(/Bare en administrator|Du kan ikke moderere/)).toBeNull();
    });

    it("a suspended moderator is told why there is no access", async () => {
      mockApi(() =>
        apiError(403, "FORBIDDEN", "Kontoen din er utestengt, så du har ingen moderatorrettigheter før utestengingen er over."),
      );
      renderRoutes(routes, { seed: { session: sessionFor("moderator") }, path: "/moderation" });
      expect(await screen.findByRole("heading", { level: 1, name: "Ingen tilgang" })).toBeInTheDocument();
      expect(
        screen.getByText("Kontoen din er utestengt, så du har ingen moderatorrettigheter før utestengingen er over."),
      ).toBeInTheDocument();
    });
  });
});
