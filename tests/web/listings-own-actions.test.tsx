import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ListingCard } from "../../domain/schemas/listing";
import { OwnListingsSection, statusLabel } from "../../web/routes/profile/OwnListingsSection";
import { apiError, bodyOf, method, mockApi, ME } from "./listingHelpers";
import { jsonResponse, listing, renderWithProviders, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

function own(overrides: Partial<ListingCard>): ListingCard {
  return listing({ user_id: ME.id, is_hidden: false, ...overrides });
}

const active = own({ title: "Aktiv bamse", status: "active" });
const reserved = own({ title: "Reservert tog", status: "reserved" });
const sold = own({ title: "Solgt sykkel", status: "sold", is_free: false, price: 900 });
const given = own({ title: "Bortgitt puslespill", status: "given_away", is_free: true, price: null });
const traded = own({ title: "Byttet dukke", status: "traded" });
const hidden = own({ title: "Skjult bil", status: "active", is_hidden: true });

function renderSection(listings: ListingCard[] = [active, reserved, sold, given, traded, hidden]) {
  const fetch = mockApi((url) => (url === "/api/me/listings" ? jsonResponse(listings) : undefined));
  const result = renderWithProviders(<OwnListingsSection />, { seed: { session: sessionFor("user") } });
  return { fetch, ...result };
}

function row(title: string) {
  return screen.getByRole("heading", { name: title }).closest("li")!;
}

async function statusMenuItems(user: ReturnType<typeof userEvent.setup>, title: string) {
  await user.click(within(row(title)).getByRole("button", { name: `Status ${title}` }));
  const items = (await screen.findAllByRole("menuitem")).map((item) => item.textContent);
  await user.keyboard("{Escape}");
  return items;
}

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

describe("OwnListingsSection", () => {
  it("shows 'Mine annonser (n)' with a 'Ny annonse' button, and view and edit links", async () => {
    renderSection();
    expect(await screen.findByRole("heading", { name: "Mine annonser (6)" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Ny annonse" })).toHaveAttribute("href", "/create-listing");
    expect(within(row("Aktiv bamse")).getByRole("link", { name: "Vis Aktiv bamse" })).toHaveAttribute("href", `/listing/${active.id}`);
    expect(within(row("Aktiv bamse")).getByRole("link", { name: "Rediger Aktiv bamse" })).toHaveAttribute(
      "href",
      `/edit-listing/${active.id}`,
    );
  });

  it("labels 'Aktiv' or 'Inaktiv' with the precise state beside it", async () => {
    renderSection();
    await screen.findByRole("heading", { name: "Mine annonser (6)" });
    const badges = (title: string) =>
      within(row(title))
        .getAllByText(/^(Aktiv|Inaktiv|Reservert|Solgt|Gitt bort|Byttet|Skjult av moderator)$/)
        .map((el) => el.textContent);
    expect(badges("Aktiv bamse")).toEqual(["Aktiv"]);
    expect(badges("Reservert tog")).toEqual(["Inaktiv", "Reservert"]);
    expect(badges("Solgt sykkel")).toEqual(["Inaktiv", "Solgt"]);
    expect(badges("Bortgitt puslespill")).toEqual(["Inaktiv", "Gitt bort"]);
    expect(badges("Byttet dukke")).toEqual(["Inaktiv", "Byttet"]);
    expect(badges("Skjult bil")).toEqual(["Inaktiv", "Skjult av moderator"]);
    expect(statusLabel({ status: "active" })).toBe("Aktiv");
  });

  it("offers only the status changes the lifecycle allows", async () => {
    const user = userEvent.setup();
    renderSection();
    await screen.findByRole("heading", { name: "Mine annonser (6)" });
    expect(await statusMenuItems(user, "Aktiv bamse")).toEqual(["Marker som reservert", "Marker som solgt", "Marker som gitt bort"]);
    expect(await statusMenuItems(user, "Reservert tog")).toEqual(["Fjern reservasjon", "Marker som solgt", "Marker som gitt bort"]);
    expect(await statusMenuItems(user, "Solgt sykkel")).toEqual(["Aktiver igjen"]);
    expect(await statusMenuItems(user, "Bortgitt puslespill")).toEqual(["Aktiver igjen"]);
    // A traded listing has nothing to change (but can still be viewed and deleted).
    expect(within(row("Byttet dukke")).queryByRole("button", { name: /^Status/ })).not.toBeInTheDocument();
    expect(within(row("Byttet dukke")).getByRole("button", { name: "Slett Byttet dukke" })).toBeInTheDocument();
  });

  it("marks a listing sold", async () => {
    const user = userEvent.setup();
    let current: ListingCard = active;
    const fetch = mockApi((url, init) => {
      if (url === "/api/me/listings") return jsonResponse([current]);
      if (url === `/api/listings/${active.id}/status` && method(init) === "POST") {
        current = { ...active, status: "sold" };
        return jsonResponse(current);
      }
    });
    renderWithProviders(<OwnListingsSection />, { seed: { session: sessionFor("user") } });
    await screen.findByRole("heading", { name: "Mine annonser (1)" });
    await user.click(screen.getByRole("button", { name: "Status Aktiv bamse" }));
    await user.click(await screen.findByRole("menuitem", { name: "Marker som solgt" }));

    await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Annonsen er markert som solgt"));
    const call = fetch.mock.calls.find(([url]) => url === `/api/listings/${active.id}/status`)!;
    expect(bodyOf(call[1])).toEqual({ status: "sold" });
    expect(within(row("Aktiv bamse")).getByText("Solgt")).toBeInTheDocument();
    expect(within(row("Aktiv bamse")).getByText("Inaktiv")).toBeInTheDocument();
  });

  it("a refused status change shows the server's reason", async () => {
    const user = userEvent.setup();
    mockApi((url) => {
      if (url === "/api/me/listings") return jsonResponse([sold]);
      if (url.endsWith("/status")) return apiError(409, "CONFLICT", "Annonsen kan ikke få denne statusen nå.");
    });
    renderWithProviders(<OwnListingsSection />, { seed: { session: sessionFor("user") } });
    await screen.findByRole("heading", { name: "Mine annonser (1)" });
    await user.click(screen.getByRole("button", { name: "Status Solgt sykkel" }));
    await user.click(await screen.findByRole("menuitem", { name: "Aktiver igjen" }));
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Feil", "Annonsen kan ikke få denne statusen nå.", { error: expect.anything() }),
    );
  });

  it("deletes after the confirm dialog; cancelling keeps the listing", async () => {
    const user = userEvent.setup();
    let current = [active, reserved];
    const fetch = mockApi((url, init) => {
      if (url === "/api/me/listings") return jsonResponse(current);
      if (url === `/api/listings/${active.id}` && method(init) === "DELETE") {
        current = [reserved];
        return new Response(null, { status: 204 });
      }
    });
    renderWithProviders(<OwnListingsSection />, { seed: { session: sessionFor("user") } });
    await screen.findByRole("heading", { name: "Mine annonser (2)" });

    await user.click(screen.getByRole("button", { name: "Slett Aktiv bamse" }));
    let dialog = await screen.findByRole("alertdialog");
    expect(
      within(dialog).getByText("Er du sikker på at du vil slette denne annonsen? Denne handlingen kan ikke angres."),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Avbryt" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(fetch.mock.calls.some(([, init]) => method(init) === "DELETE")).toBe(false);

    await user.click(screen.getByRole("button", { name: "Slett Aktiv bamse" }));
    dialog = await screen.findByRole("alertdialog");
    await user.click(within(dialog).getByRole("button", { name: "Slett annonsen" }));
    await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Annonse slettet"));
    expect(screen.queryByRole("heading", { name: "Aktiv bamse" })).not.toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Mine annonser (1)" })).toBeInTheDocument();
  });

  it("a failed delete says 'Kunne ikke slette annonse'", async () => {
    const user = userEvent.setup();
    mockApi((url, init) => {
      if (url === "/api/me/listings") return jsonResponse([active]);
      if (method(init) === "DELETE") return apiError(500, "INTERNAL", "Noe gikk galt. Prøv igjen.");
    });
    renderWithProviders(<OwnListingsSection />, { seed: { session: sessionFor("user") } });
    await user.click(await screen.findByRole("button", { name: "Slett Aktiv bamse" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Slett annonsen" }));
    await waitFor(() => expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke slette annonse", { error: expect.anything() }));
    expect(screen.getByRole("heading", { name: "Aktiv bamse" })).toBeInTheDocument();
  });

  it("shows an empty state with a way to create a listing", async () => {
    renderSection([]);
    expect(await screen.findByRole("heading", { name: "Mine annonser (0)" })).toBeInTheDocument();
    expect(screen.getByText("Du har ingen annonser ennå.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Legg ut din første annonse" })).toHaveAttribute("href", "/create-listing");
  });

  it("a failed load says 'Kunne ikke hente annonser'", async () => {
    mockApi((url) => (url === "/api/me/listings" ? apiError(500, "INTERNAL", "Noe gikk galt. Prøv igjen.") : undefined));
    renderWithProviders(<OwnListingsSection />, { seed: { session: sessionFor("user") } });
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke hente annonser", { id: "own-listings", error: expect.anything() }),
    );
    expect(screen.getByRole("button", { name: "Prøv igjen" })).toBeInTheDocument();
  });
});
