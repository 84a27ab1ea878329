// /admin/drift "Drift" (docs/decisions/134-operations-page.md): no access for anyone the server
// refuses, "Alt ser bra ut" with every section in order, each flagged condition with what it found,
// and a failed load with its Feilkode.
import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { DriftPage } from "../../web/routes/admin/DriftPage";
import { driftReportBody } from "../factories/api";
import { apiError, mockApi } from "./listingHelpers";
import { jsonResponse, renderRoutes, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

const routes = [{ path: "/admin/drift", element: <DriftPage /> }];
const ORDER = "5f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f";

function open(role: "user" | "admin" = "admin") {
  return renderRoutes(routes, { seed: { session: sessionFor(role) }, path: "/admin/drift" });
}

const section = (name: string) => screen.getByRole("region", { name });

beforeEach(() => toast.toastError.mockReset());

describe("/admin/drift", () => {
  it("anyone the server refuses (403) is told the page is for admins", async () => {
    mockApi(() => apiError(403, "FORBIDDEN", "Du har ikke tilgang til dette."));
    open("user");
    expect(await screen.findByRole("heading", { level: 1, name: "Ingen tilgang" })).toBeInTheDocument();
    expect(screen.getByText("Du har ikke tilgang til driftssiden. Siden er bare for administratorer.")).toBeInTheDocument();
    expect(toast.toastError).not.toHaveBeenCalled();
  });

  it("with nothing wrong: 'Alt ser bra ut', and every section in order", async () => {
    mockApi((url) => (url === "/api/admin/drift" ? jsonResponse(driftReportBody()) : undefined));
    open();
    expect(await screen.findByRole("heading", { level: 1, name: "Drift" })).toBeInTheDocument();
    expect(await screen.findByText("Alt ser bra ut")).toBeInTheDocument();
    for (const [name, none] of [
      ["Penger holdt lenger enn reglene tillater", "Ingen penger holdes lenger enn reglene tillater."],
      ["Overføringer og tilbakebetalinger som feilet", "Alle avgjorte kjøp har fått pengene flyttet."],
      ["Webhooks avvist siste døgn", "Ingen webhooks er avvist siste døgn."],
      ["Analysekøens etterslep", "Ingen meldinger venter i køen."],
      ["Feil siste time", "Ingen uventede feil siste time."],
    ]) {
      expect(within(section(name)).getByText("I orden")).toBeInTheDocument();
      expect(within(section(name)).getByText(none)).toBeInTheDocument();
    }
    expect(within(section("Timejobben")).getByText("Betalinger uten webhook")).toBeInTheDocument();
    expect(within(section("Timejobben")).getByText("Lyktes")).toBeInTheDocument();
  });

  it("names each condition that needs attention with what it found", async () => {
    const report = driftReportBody({
      conditions: ["held_too_long", "webhooks_refused", "cron_failing", "errors"],
      held_orders: {
        total: 60,
        items: [
          {
            id: ORDER,
            listing_title: "Dukkevogn",
            state: "held",
            amount: 25000,
            paid_at: "2026-11-18T09:00:00.000Z",
            overdue_since: "2026-11-27T09:00:00.000Z",
          },
        ],
      },
      webhook_refusals: {
        total: 8,
        items: [{ provider: "stripe", code: "INVALID_SIGNATURE", count: 8, last_at: "2026-11-29T08:15:00.000Z" }],
      },
      dead_letters: { total: 12, at_least: false, last_day: 0, newest_at: "2026-11-20T08:00:00.000Z" },
      cron_steps: [
        {
          step: "sitemap",
          label: "Nettstedskart",
          last_run_at: "2026-11-29T09:00:00.000Z",
          last_ok: false,
          last_error: "R2 is unavailable",
          last_ms: 12,
          failures_in_a_row: 2,
        },
      ],
      errors: {
        total: 1,
        capped: false,
        items: [
          {
            request_id: "8f1c2d3e4a5b6c7d-OSL",
            at: "2026-11-29T09:40:00.000Z",
            method: "GET",
            route: "/api/home",
            status: 500,
            name: "SyntaxError",
            message: "Unexpected token",
          },
        ],
      },
    });
    mockApi((url) => (url === "/api/admin/drift" ? jsonResponse(report) : undefined));
    open();
    expect(await screen.findByText("4 forhold krever oppfølging")).toBeInTheDocument();

    const held = section("Penger holdt lenger enn reglene tillater");
    expect(within(held).getByText("Krever oppfølging")).toBeInTheDocument();
    expect(within(held).getByText("Dukkevogn")).toBeInTheDocument();
    expect(within(held).getByText(/Ikke overlevert 9 dager etter betaling/)).toBeInTheDocument();
    expect(within(held).getByText(ORDER)).toBeInTheDocument();
    expect(within(held).getByText("Viser 1 av 60.")).toBeInTheDocument();

    const webhooks = section("Webhooks avvist siste døgn");
    expect(within(webhooks).getByText("Stripe")).toBeInTheDocument();
    expect(within(webhooks).getByText(/Ugyldig signatur/)).toBeInTheDocument();
    expect(within(webhooks).getByText(/8 ganger/)).toBeInTheDocument();

    expect(within(section("Analysekøens dødbrevkø")).getByText(/12 lagret i alt/)).toBeInTheDocument();
    expect(within(section("Analysekøens dødbrevkø")).getByText("I orden")).toBeInTheDocument();

    const cron = section("Timejobben");
    expect(within(cron).getByText("Feilet")).toBeInTheDocument();
    expect(within(cron).getByText("R2 is unavailable")).toBeInTheDocument();
    expect(within(cron).getByText(/2 feil på rad/)).toBeInTheDocument();

    const errors = section("Feil siste time");
    expect(within(errors).getByText("SyntaxError: Unexpected token")).toBeInTheDocument();
    expect(within(errors).getByText("Feilkode: 8f1c2d3e4a5b6c7d-OSL")).toBeInTheDocument();
  });

  it("a failed load says so with the server error's Feilkode", async () => {
    mockApi((url) => {
      if (url !== "/api/admin/drift") return undefined;
      const res = apiError(500, "INTERNAL", "Noe gikk galt. Prøv igjen.");
      res.headers.set("X-Request-Id", "a1b2c3d4e5f60718");
      return res;
    });
    open();
    expect(await screen.findByText("Kunne ikke laste driftssiden")).toBeInTheDocument();
    expect(screen.getByText("Feilkode: a1b2c3d4e5f60718")).toBeInTheDocument();
    expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke laste driftssiden", { id: "drift-load", error: expect.anything() });
  });
});
