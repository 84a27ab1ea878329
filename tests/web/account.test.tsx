import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { RouteObject } from "react-router-dom";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Session } from "../../web/api/auth";
import { RequireAuth } from "../../web/components/RequireAuth";
import { Header } from "../../web/components/layout/Header";
import { FavouritesPage } from "../../web/routes/favourites/FavouritesPage";
import { MyListingsPage } from "../../web/routes/profile/MyListingsPage";
import { ProfilePage } from "../../web/routes/profile/ProfilePage";
import type { Profile } from "../../web/api/account";
import { giveawayUnseenBody, profileBody, savedSearchBadgeBody } from "../factories/api";
import { jsonResponse, listing, mockFetch, renderRoutes, renderWithProviders, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

const routes: RouteObject[] = [
  { path: "/", element: <h1>Forsiden</h1> },
  { path: "/auth", element: <h1>Logg inn</h1> },
  {
    element: <RequireAuth signedOut="redirect" />,
    children: [
      { path: "/profile", element: <ProfilePage /> },
      { path: "/min-profil", element: <ProfilePage /> },
    ],
  },
  {
    element: <RequireAuth signedOut="form" />,
    children: [
      { path: "/my-listings", element: <MyListingsPage /> },
      { path: "/favoritter", element: <FavouritesPage /> },
    ],
  },
];

const profile = (overrides: Partial<Profile> = {}): Profile => profileBody(overrides);

type Handler = (url: string, init: RequestInit | undefined) => Response | undefined | Promise<Response | undefined>;

/** The profile page's own requests, with `handler` answering first. */
function mockApi(handler: Handler = () => undefined, me: Profile = profile()) {
  return mockFetch(async (url, init) => {
    const answer = await handler(url, init);
    if (answer) return answer;
    if (url === "/api/me") return jsonResponse(me);
    if (url === "/api/me/listings") return jsonResponse([]);
    if (url === "/api/me/sessions") return jsonResponse([]);
    return jsonResponse({ error: { code: "NOT_FOUND", message: "Ikke funnet" } }, 404);
  });
}

function calls(fetch: ReturnType<typeof mockFetch>, method: string, url: string) {
  return fetch.mock.calls.filter(([u, init]) => u === url && (init?.method ?? "GET") === method);
}

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

async function openProfile(path = "/min-profil", session: Session = sessionFor()) {
  const rendered = renderRoutes(routes, { seed: { session }, path });
  const info = (await screen.findByRole("heading", { name: "Profilinformasjon" })).closest("section")!;
  await within(info).findByText("kari@example.no");
  return { ...rendered, info };
}

describe("/profile and /min-profil", () => {
  it.each(["/profile", "/min-profil"])("%s shows 'Min profil' with e-mail, name, postal code and member since", async (path) => {
    mockApi();
    const { info } = await openProfile(path);
    expect(screen.getByRole("heading", { level: 1, name: "Min profil" })).toBeInTheDocument();
    expect(within(info).getByText("Kari")).toBeInTheDocument();
    expect(within(info).getByText("0155")).toBeInTheDocument();
    expect(within(info).getByText("Medlem siden")).toBeInTheDocument();
    expect(within(info).getByText("5. mars 2024")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Betaling" })).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "Mine annonser (0)" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Ny annonse" })).toHaveAttribute("href", "/create-listing");
    expect(screen.getByRole("heading", { name: "Dine data" })).toBeInTheDocument();
  });

  it("Avbryt restores the saved values and sends nothing", async () => {
    const fetch = mockApi();
    const { info } = await openProfile();
    await userEvent.click(within(info).getByRole("button", { name: "Rediger" }));
    const name = within(info).getByLabelText("Navn");
    expect(name).toHaveValue("Kari");
    expect(name).toHaveFocus();
    await userEvent.clear(name);
    await userEvent.type(name, "Noen andre");
    await userEvent.clear(within(info).getByLabelText("Postnummer"));
    await userEvent.click(within(info).getByRole("button", { name: "Avbryt" }));

    expect(within(info).queryByLabelText("Navn")).not.toBeInTheDocument();
    expect(within(info).getByText("Kari")).toBeInTheDocument();
    expect(within(info).getByText("0155")).toBeInTheDocument();
    await userEvent.click(within(info).getByRole("button", { name: "Rediger" }));
    expect(within(info).getByLabelText("Navn")).toHaveValue("Kari");
    expect(within(info).getByLabelText("Postnummer")).toHaveValue("0155");
    expect(calls(fetch, "PATCH", "/api/me/profile")).toHaveLength(0);
  });

  it("Lagre trims, sends an empty field as null, disables the inputs meanwhile, then says 'Profil oppdatert'", async () => {
    let release!: () => void;
    const saved = new Promise<void>((resolve) => (release = resolve));
    const fetch = mockApi(async (url, init) => {
      if (url !== "/api/me/profile") return undefined;
      await saved;
      const body = JSON.parse(String(init?.body)) as { display_name: string | null; postal_code: string | null };
      return jsonResponse(profile(body));
    });
    const { info, queryClient } = await openProfile();
    await userEvent.click(within(info).getByRole("button", { name: "Rediger" }));
    const name = within(info).getByLabelText("Navn");
    await userEvent.clear(name);
    await userEvent.type(name, "  Kari Nordmann  ");
    await userEvent.clear(within(info).getByLabelText("Postnummer"));
    await userEvent.click(within(info).getByRole("button", { name: "Lagre" }));

    expect(await within(info).findByRole("button", { name: "Lagrer..." })).toBeDisabled();
    expect(within(info).getByLabelText("Navn")).toBeDisabled();
    expect(within(info).getByLabelText("Postnummer")).toBeDisabled();
    const [patch] = calls(fetch, "PATCH", "/api/me/profile");
    expect(JSON.parse(String(patch[1]?.body))).toEqual({ display_name: "Kari Nordmann", postal_code: null, street_address: null });

    release();
    expect(await within(info).findByText("Kari Nordmann")).toBeInTheDocument();
    expect(within(info).getByText("Postnummer").nextElementSibling).toHaveTextContent("Ikke oppgitt");
    expect(toast.toastSuccess).toHaveBeenCalledWith("Profil oppdatert");
    // The header's name comes from the session; it follows the saved profile.
    expect(queryClient.getQueryData<Session>(["session"])?.user.display_name).toBe("Kari Nordmann");
  });

  it("a postal code that is not 4 digits is refused before sending", async () => {
    const fetch = mockApi();
    const { info } = await openProfile();
    await userEvent.click(within(info).getByRole("button", { name: "Rediger" }));
    const postal = within(info).getByLabelText("Postnummer");
    expect(postal).toHaveAttribute("inputmode", "numeric");
    await userEvent.clear(postal);
    await userEvent.type(postal, "12a");
    await userEvent.click(within(info).getByRole("button", { name: "Lagre" }));
    expect(await within(info).findByText("Postnummer må være 4 siffer")).toBeInTheDocument();
    expect(postal).toHaveAttribute("aria-invalid", "true");
    expect(calls(fetch, "PATCH", "/api/me/profile")).toHaveLength(0);
  });

  it("'Gateadresse': shown to its owner, edited with its hint, sent cleaned; emptied it is sent as null", async () => {
    const fetch = mockApi(
      (url, init) => (url === "/api/me/profile" ? jsonResponse(profile(JSON.parse(String(init?.body)) as Partial<Profile>)) : undefined),
      profile({ street_address: "Storgata 12B" }),
    );
    const { info } = await openProfile();
    expect(within(info).getByText("Gateadresse")).toBeInTheDocument();
    expect(within(info).getByText("Storgata 12B")).toBeInTheDocument();
    await userEvent.click(within(info).getByRole("button", { name: "Rediger" }));
    const street = within(info).getByLabelText("Gateadresse");
    expect(street).toHaveValue("Storgata 12B");
    expect(street).toHaveAccessibleDescription("Brukes som avsenderadresse når du sender en pakke.");
    expect(street).toHaveAttribute("autocomplete", "address-line1");
    await userEvent.clear(street);
    await userEvent.type(street, "  Lilleveien 3  ");
    await userEvent.click(within(info).getByRole("button", { name: "Lagre" }));
    expect(await within(info).findByText("Lilleveien 3")).toBeInTheDocument();
    expect(JSON.parse(String(calls(fetch, "PATCH", "/api/me/profile")[0][1]?.body))).toEqual({
      display_name: "Kari",
      postal_code: "0155",
      street_address: "Lilleveien 3",
    });

    await userEvent.click(within(info).getByRole("button", { name: "Rediger" }));
    await userEvent.clear(within(info).getByLabelText("Gateadresse"));
    await userEvent.click(within(info).getByRole("button", { name: "Lagre" }));
    await waitFor(() => expect(calls(fetch, "PATCH", "/api/me/profile")).toHaveLength(2));
    expect(JSON.parse(String(calls(fetch, "PATCH", "/api/me/profile")[1][1]?.body))).toMatchObject({ street_address: null });
    await waitFor(() => expect(within(info).getByText("Gateadresse").nextElementSibling).toHaveTextContent("Ikke oppgitt"));
  });

  it("the server's refusal of the street address is shown at the field", async () => {
    const message = "Gateadressen kan være maks 100 tegn";
    mockApi((url) =>
      url === "/api/me/profile"
        ? jsonResponse({ error: { code: "VALIDATION", message, fields: { street_address: message } } }, 400)
        : undefined,
    );
    const { info } = await openProfile();
    await userEvent.click(within(info).getByRole("button", { name: "Rediger" }));
    await userEvent.type(within(info).getByLabelText("Gateadresse"), "Storgata 1");
    await userEvent.click(within(info).getByRole("button", { name: "Lagre" }));
    const street = within(info).getByLabelText("Gateadresse");
    await waitFor(() => expect(street).toHaveAttribute("aria-invalid", "true"));
    expect(street).toHaveAccessibleDescription(`Brukes som avsenderadresse når du sender en pakke. ${message}`);
  });

  it("a failed save says 'Kunne ikke oppdatere profil' and stays in edit mode", async () => {
    mockApi((url) =>
      url === "/api/me/profile" ? jsonResponse({ error: { code: "INTERNAL", message: "Noe gikk galt. Prøv igjen." } }, 500) : undefined,
    );
    const { info } = await openProfile();
    await userEvent.click(within(info).getByRole("button", { name: "Rediger" }));
    await userEvent.type(within(info).getByLabelText("Navn"), " B");
    await userEvent.click(within(info).getByRole("button", { name: "Lagre" }));
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Kunne ikke oppdatere profil", "Noe gikk galt. Prøv igjen.", {
        error: expect.anything(),
      }),
    );
    expect(within(info).getByLabelText("Navn")).toHaveValue("Kari B");
    expect(within(info).getByLabelText("Navn")).toBeEnabled();
  });

  it("a failed load says 'Kunne ikke hente profil'", async () => {
    mockApi((url) =>
      url === "/api/me" ? jsonResponse({ error: { code: "INTERNAL", message: "Noe gikk galt. Prøv igjen." } }, 500) : undefined,
    );
    renderRoutes(routes, { seed: { session: sessionFor() }, path: "/profile" });
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Kunne ikke hente profil", "Noe gikk galt. Prøv igjen.", {
        id: "profile-load",
        error: expect.anything(),
      }),
    );
    expect(screen.getByRole("button", { name: "Prøv igjen" })).toBeInTheDocument();
  });

  it("'Logg ut' signs out, says 'Logget ut' and goes to /", async () => {
    const fetch = mockApi((url) => (url === "/api/auth/signout" ? new Response(null, { status: 204 }) : undefined));
    const { router } = await openProfile("/profile");
    await userEvent.click(screen.getByRole("button", { name: "Logg ut" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(toast.toastSuccess).toHaveBeenCalledWith("Logget ut", "Du er nå logget ut av Lekebytte");
    expect(calls(fetch, "POST", "/api/auth/signout")).toHaveLength(1);
  });

  it("'Slett konto' asks first and for the password; confirming deletes the account, forgets the session and goes to /", async () => {
    const fetch = mockApi((url, init) =>
      url === "/api/me" && init?.method === "DELETE" ? new Response(null, { status: 204 }) : undefined,
    );
    const { router, queryClient } = await openProfile();
    await userEvent.click(screen.getByRole("button", { name: "Slett konto" }));

    const dialog = await screen.findByRole("alertdialog", { name: "Slette kontoen din?" });
    expect(dialog).toHaveTextContent("Dette kan ikke angres.");
    await userEvent.click(within(dialog).getByRole("button", { name: "Avbryt" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(calls(fetch, "DELETE", "/api/me")).toHaveLength(0);

    await userEvent.click(screen.getByRole("button", { name: "Slett konto" }));
    const again = await screen.findByRole("alertdialog");
    await userEvent.type(within(again).getByLabelText("Passord"), "hemmelig123");
    await userEvent.click(within(again).getByRole("button", { name: "Slett konto for godt" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    const [deleted] = calls(fetch, "DELETE", "/api/me");
    expect(JSON.parse(String(deleted[1]?.body))).toEqual({ password: "hemmelig123" });
    expect(queryClient.getQueryData(["session"])).toBeNull();
    expect(queryClient.getQueryData(["me", "profile"])).toBeUndefined();
    expect(toast.toastSuccess).toHaveBeenCalledWith("Kontoen er slettet", expect.any(String));
  });

  it("'Slett konto' without a password or with a wrong one says so in Norwegian and keeps the account", async () => {
    const wrong = {
      error: { code: "INVALID_CREDENTIALS", message: "Feil passord. Prøv igjen.", fields: { password: "Feil passord. Prøv igjen." } },
    };
    const fetch = mockApi((url, init) => (url === "/api/me" && init?.method === "DELETE" ? jsonResponse(wrong, 400) : undefined));
    const { router } = await openProfile();
    await userEvent.click(screen.getByRole("button", { name: "Slett konto" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Slette kontoen din?" });

    await userEvent.click(within(dialog).getByRole("button", { name: "Slett konto for godt" }));
    expect(within(dialog).getByLabelText("Passord")).toHaveAccessibleDescription("Skriv inn passordet ditt for å bekrefte.");
    expect(calls(fetch, "DELETE", "/api/me")).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText("Passord"), "feil");
    await userEvent.click(within(dialog).getByRole("button", { name: "Slett konto for godt" }));
    await waitFor(() => expect(within(dialog).getByLabelText("Passord")).toHaveAccessibleDescription("Feil passord. Prøv igjen."));
    expect(screen.getByRole("alertdialog")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/min-profil");
    expect(toast.toastSuccess).not.toHaveBeenCalled();
  });

  it("'Last ned mine data' asks for the password and posts it to /api/me/export", async () => {
    const createObjectURL = vi.fn(() => "blob:eksport");
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    // jsdom cannot follow a download link; record the click instead.
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);
    const fetch = mockApi((url, init) =>
      url === "/api/me/export" && init?.method === "POST" ? jsonResponse({ profile: { email: "kari@example.no" } }) : undefined,
    );
    await openProfile();
    await userEvent.click(screen.getByRole("button", { name: "Last ned mine data" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Last ned dataene dine" });
    await userEvent.type(within(dialog).getByLabelText("Passord"), "hemmelig123");
    await userEvent.click(within(dialog).getByRole("button", { name: "Last ned" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    const [exported] = calls(fetch, "POST", "/api/me/export");
    expect(JSON.parse(String(exported[1]?.body))).toEqual({ password: "hemmelig123" });
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    expect(click).toHaveBeenCalledTimes(1);
    expect(click.mock.contexts[0]).toHaveProperty("download", expect.stringMatching(/^lekebytte-mine-data-\d{4}-\d{2}-\d{2}\.json$/));
    click.mockRestore();
    expect(calls(fetch, "GET", "/api/me/export")).toHaveLength(0);
  });

  it("a visitor is sent to /auth", async () => {
    const { router } = renderRoutes(routes, { seed: { session: null }, path: "/min-profil" });
    await waitFor(() => expect(router.state.location.pathname).toBe("/auth"));
  });
});

describe("/my-listings", () => {
  it("shows 'Mine annonser' with the own-listings list", async () => {
    const own = listing({ title: "Brio togbane" });
    mockApi((url) => (url === "/api/me/listings" ? jsonResponse([own]) : undefined));
    renderRoutes(routes, { seed: { session: sessionFor() }, path: "/my-listings" });
    expect(await screen.findByRole("heading", { level: 1, name: "Mine annonser" })).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "Mine annonser (1)" })).toBeInTheDocument();
    expect(screen.getAllByText("Brio togbane").length).toBeGreaterThan(0);
  });

  it("a visitor gets the sign-in form in its place", async () => {
    renderRoutes(routes, { seed: { session: null }, path: "/my-listings" });
    expect(await screen.findByRole("form", { name: "Logg inn" })).toBeInTheDocument();
  });
});

describe("/favoritter", () => {
  it("shows a loading text, then the favourited listings as cards", async () => {
    let release!: () => void;
    const ready = new Promise<void>((resolve) => (release = resolve));
    const favourites = [listing({ title: "Lego Friends hus" }), listing({ title: "Dukkevogn", is_free: true, price: null })];
    mockApi(async (url) => {
      if (url !== "/api/favourites") return undefined;
      await ready;
      return jsonResponse(favourites);
    });
    renderRoutes(routes, { seed: { session: sessionFor() }, path: "/favoritter" });
    expect(await screen.findByRole("heading", { level: 1, name: "Favoritter" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Laster favoritter...");
    release();
    expect(await screen.findByRole("link", { name: "Lego Friends hus" })).toHaveAttribute("href", expect.stringMatching(/^\/annonse\//));
    expect(screen.getByRole("link", { name: "Dukkevogn" })).toBeInTheDocument();
    expect(screen.getAllByRole("article")).toHaveLength(2);
  });

  it("with none: 'Du har ingen favoritter ennå.'", async () => {
    mockApi((url) => (url === "/api/favourites" ? jsonResponse([]) : undefined));
    renderRoutes(routes, { seed: { session: sessionFor() }, path: "/favoritter" });
    expect(await screen.findByText("Du har ingen favoritter ennå.")).toBeInTheDocument();
  });
});

describe("header menu", () => {
  it("lists 'Favoritter', 'Lagrede søk', 'Mine køplasser' and 'Byttehistorikk' between 'Mine annonser' and 'Moderasjon'", async () => {
    renderWithProviders(<Header />, { seed: { session: sessionFor("moderator") } });
    await userEvent.click(await screen.findByRole("button", { name: "Min konto" }));
    const items = within(await screen.findByRole("menu"))
      .getAllByRole("menuitem")
      .map((item) => item.textContent);
    expect(items).toEqual([
      "Profil",
      "Mine annonser",
      "Favoritter",
      "Lagrede søk",
      "Mine køplasser",
      "Byttehistorikk",
      "Moderasjon",
      "Logg ut",
    ]);
    expect(screen.getByRole("menuitem", { name: "Favoritter" })).toHaveAttribute("href", "/favoritter");
    expect(screen.getByRole("menuitem", { name: "Lagrede søk" })).toHaveAttribute("href", "/lagrede-sok");
    expect(screen.getByRole("menuitem", { name: "Mine køplasser" })).toHaveAttribute("href", "/mine-koplasser");
    expect(screen.getByRole("menuitem", { name: "Byttehistorikk" })).toHaveAttribute("href", "/trade-history");
  });

  it("counts new give-away queue notices on the account button and on 'Mine køplasser' (decision 075)", async () => {
    mockApi((url) => {
      if (url === "/api/giveaways/mine/unseen") return jsonResponse(giveawayUnseenBody(2));
      if (url === "/api/saved-searches/badge") return jsonResponse(savedSearchBadgeBody(1));
    });
    renderWithProviders(<Header />, { seed: { session: sessionFor("user") } });
    const account = await screen.findByRole("button", { name: "Min konto, 1 lagret søk med nye treff, 2 nye køvarsler" });
    expect(account).toHaveTextContent("3");
    await userEvent.click(account);
    expect(await screen.findByRole("menuitem", { name: "Mine køplasser, 2 nye" })).toHaveAttribute("href", "/mine-koplasser");
  });
});
