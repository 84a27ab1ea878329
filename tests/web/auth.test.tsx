import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { RouteObject } from "react-router-dom";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AuthPage } from "../../web/routes/auth/AuthPage";
import { CallbackPage } from "../../web/routes/auth/CallbackPage";
import { createTestQueryClient, jsonResponse, mockFetch, renderRoutes, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);
const routes: RouteObject[] = [
  { path: "/", element: <h1>Forsiden</h1> },
  { path: "/auth", element: <AuthPage /> },
  { path: "/auth/callback", element: <CallbackPage /> },
  { path: "/min-profil", element: <h1>Min profil</h1> },
  { path: "/listing/:id", element: <h1>Annonsen</h1> },
];

function errorBody(code: string, message: string, status: number, fields?: Record<string, string>) {
  return jsonResponse({ error: { code, message, ...(fields ? { fields } : {}) } }, status);
}

/** A response the test releases when it wants, to look at the page while the request runs. */
function deferred() {
  let resolve!: (response: Response) => void;
  const promise = new Promise<Response>((r) => (resolve = r));
  return { promise, resolve };
}

function bodyOf(fetch: ReturnType<typeof mockFetch>, call = 0): unknown {
  return JSON.parse(String(fetch.mock.calls[call][1]?.body));
}

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

async function openSignUp() {
  renderRoutes(routes, { seed: { session: null }, path: "/auth" });
  await userEvent.click(await screen.findByRole("tab", { name: "Registrer" }));
  return screen.findByRole("form", { name: "Registrer" });
}

describe("/auth", () => {
  it("shows the 'Logg inn' tab by default, and 'Registrer' beside it", async () => {
    renderRoutes(routes, { seed: { session: null }, path: "/auth" });
    expect(await screen.findByRole("tab", { name: "Logg inn" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: "Registrer" })).toHaveAttribute("aria-selected", "false");
    const form = screen.getByRole("form", { name: "Logg inn" });
    expect(within(form).getByLabelText("E-post")).toHaveAttribute("autocomplete", "email");
    expect(within(form).getByLabelText("Passord")).toHaveAttribute("autocomplete", "current-password");
  });

  it("the tabs follow the keyboard: arrows, Home and End select and focus a tab; the selected one is the only tab stop", async () => {
    renderRoutes(routes, { seed: { session: null }, path: "/auth" });
    const signIn = await screen.findByRole("tab", { name: "Logg inn" });
    const signUp = screen.getByRole("tab", { name: "Registrer" });
    expect(signIn).toHaveAttribute("tabindex", "0");
    expect(signUp).toHaveAttribute("tabindex", "-1");
    expect(screen.getByRole("tabpanel")).toHaveAttribute("aria-labelledby", signIn.id);
    signIn.focus();
    await userEvent.keyboard("{ArrowRight}");
    expect(signUp).toHaveAttribute("aria-selected", "true");
    expect(signUp).toHaveFocus();
    expect(await screen.findByRole("form", { name: "Registrer" })).toBeInTheDocument();
    expect(screen.getByRole("tabpanel")).toHaveAttribute("aria-labelledby", signUp.id);
    await userEvent.keyboard("{ArrowRight}");
    expect(signIn).toHaveAttribute("aria-selected", "true");
    expect(signIn).toHaveFocus();
    await userEvent.keyboard("{End}");
    expect(signUp).toHaveFocus();
    await userEvent.keyboard("{Home}");
    expect(signIn).toHaveFocus();
    expect(screen.getByRole("form", { name: "Logg inn" })).toBeInTheDocument();
  });

  it("sends someone who already has a session to /", async () => {
    const { router } = renderRoutes(routes, { seed: { session: sessionFor() }, path: "/auth" });
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
  });

  describe("sign-in", () => {
    it("empty fields: 'Vennligst fyll ut e-post og passord.' and nothing is sent", async () => {
      const fetch = mockFetch(() => jsonResponse({}, 500));
      renderRoutes(routes, { seed: { session: null }, path: "/auth" });
      const form = await screen.findByRole("form", { name: "Logg inn" });
      await userEvent.type(within(form).getByLabelText("E-post"), "kari@example.no");
      await userEvent.click(within(form).getByRole("button", { name: "Logg inn" }));
      await waitFor(() => expect(toast.toastError).toHaveBeenCalledWith("Feil", "Vennligst fyll ut e-post og passord."));
      expect(fetch).not.toHaveBeenCalled();
    });

    it("an empty field is marked invalid and gets focus; once filled in after the submit, it is no longer marked", async () => {
      const fetch = mockFetch(() => jsonResponse({}, 500));
      renderRoutes(routes, { seed: { session: null }, path: "/auth" });
      const form = await screen.findByRole("form", { name: "Logg inn" });
      const email = within(form).getByLabelText("E-post");
      const password = within(form).getByLabelText("Passord");
      await userEvent.type(email, "kari@example.no");
      expect(email).not.toHaveAttribute("aria-invalid");
      await userEvent.click(within(form).getByRole("button", { name: "Logg inn" }));
      await waitFor(() => expect(password).toHaveAttribute("aria-invalid", "true"));
      expect(password).toHaveFocus();
      expect(email).not.toHaveAttribute("aria-invalid");
      await userEvent.type(password, "h");
      await waitFor(() => expect(password).not.toHaveAttribute("aria-invalid"));
      await userEvent.clear(email);
      await waitFor(() => expect(email).toHaveAttribute("aria-invalid", "true"));
      expect(fetch).not.toHaveBeenCalled();
    });

    it("disables the inputs while signing in, then says 'Velkommen tilbake!' and goes to /", async () => {
      const response = deferred();
      const fetch = mockFetch(() => response.promise);
      const { router } = renderRoutes(routes, { seed: { session: null }, path: "/auth" });
      const form = await screen.findByRole("form", { name: "Logg inn" });
      await userEvent.type(within(form).getByLabelText("E-post"), " Kari@Example.no ");
      await userEvent.type(within(form).getByLabelText("Passord"), "hemmelig1");
      await userEvent.click(within(form).getByRole("button", { name: "Logg inn" }));

      expect(await within(form).findByRole("button", { name: "Logger inn..." })).toBeDisabled();
      expect(within(form).getByLabelText("E-post")).toBeDisabled();
      expect(within(form).getByLabelText("Passord")).toBeDisabled();
      expect(bodyOf(fetch)).toEqual({ email: "kari@example.no", password: "hemmelig1" });

      response.resolve(jsonResponse(sessionFor()));
      await waitFor(() => expect(router.state.location.pathname).toBe("/"));
      expect(toast.toastSuccess).toHaveBeenCalledWith("Velkommen tilbake!", "Du er nå logget inn.");
    });

    it("signing in from a listing goes back to it (?next=), with its query", async () => {
      mockFetch(() => jsonResponse(sessionFor()));
      const next = "/listing/abc?handling=melding";
      const { router } = renderRoutes(routes, { seed: { session: null }, path: `/auth?next=${encodeURIComponent(next)}` });
      const form = await screen.findByRole("form", { name: "Logg inn" });
      await userEvent.type(within(form).getByLabelText("E-post"), "kari@example.no");
      await userEvent.type(within(form).getByLabelText("Passord"), "hemmelig1");
      await userEvent.click(within(form).getByRole("button", { name: "Logg inn" }));
      await waitFor(() => expect(router.state.location.pathname).toBe("/listing/abc"));
      expect(router.state.location.search).toBe("?handling=melding");
      expect(router.state.historyAction).toBe("REPLACE");
    });

    it.each([
      "//evil.example/x",
      "https://evil.example/",
      "/\\evil.example",
      "javascript:alert(1)",
      "/\t/evil.example",
      "/auth?next=/x",
      "listing/abc",
    ])("a ?next= that is not a path on this site (%s) goes to / instead", async (next) => {
      mockFetch(() => jsonResponse(sessionFor()));
      const { router } = renderRoutes(routes, { seed: { session: null }, path: `/auth?next=${encodeURIComponent(next)}` });
      const form = await screen.findByRole("form", { name: "Logg inn" });
      await userEvent.type(within(form).getByLabelText("E-post"), "kari@example.no");
      await userEvent.type(within(form).getByLabelText("Passord"), "hemmelig1");
      await userEvent.click(within(form).getByRole("button", { name: "Logg inn" }));
      await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalled());
      await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe("/"));
    });

    it("wrong credentials: 'Feil innloggingsopplysninger'; an unconfirmed e-mail: 'Feil ved innlogging' with the message", async () => {
      let answer = errorBody("INVALID_CREDENTIALS", "E-post eller passord er feil. Prøv igjen.", 400);
      mockFetch(() => answer);
      renderRoutes(routes, { seed: { session: null }, path: "/auth" });
      const form = await screen.findByRole("form", { name: "Logg inn" });
      await userEvent.type(within(form).getByLabelText("E-post"), "kari@example.no");
      await userEvent.type(within(form).getByLabelText("Passord"), "feil-passord");
      await userEvent.click(within(form).getByRole("button", { name: "Logg inn" }));
      await waitFor(() =>
        expect(toast.toastError).toHaveBeenCalledWith("Feil innloggingsopplysninger", "E-post eller passord er feil. Prøv igjen."),
      );
      expect(within(form).getByLabelText("Passord")).toBeEnabled();

      answer = errorBody("EMAIL_NOT_CONFIRMED", "E-postadressen er ikke bekreftet ennå.", 403);
      await userEvent.click(within(form).getByRole("button", { name: "Logg inn" }));
      await waitFor(() =>
        expect(toast.toastError).toHaveBeenCalledWith("Feil ved innlogging", "E-postadressen er ikke bekreftet ennå.", {
          error: expect.anything(),
        }),
      );
    });
  });

  describe("sign-up", () => {
    it("has the fields the spec names, with labels, autocomplete and the password placeholder", async () => {
      const form = await openSignUp();
      expect(within(form).getByLabelText("Navn")).toHaveAttribute("autocomplete", "name");
      expect(within(form).getByLabelText("E-post")).toHaveAttribute("autocomplete", "email");
      const password = within(form).getByLabelText("Passord");
      expect(password).toHaveAttribute("autocomplete", "new-password");
      expect(password).toHaveAttribute("placeholder", "Minimum 6 tegn");
      const postal = within(form).getByLabelText("Postnummer (valgfritt)");
      expect(postal).toHaveAttribute("autocomplete", "postal-code");
      expect(postal).toHaveAttribute("inputmode", "numeric");
      expect(postal).toHaveAttribute("maxlength", "4");
    });

    it("missing fields: 'Manglende informasjon' / 'Vennligst fyll ut alle felt.' and nothing is sent", async () => {
      const fetch = mockFetch(() => jsonResponse({}, 500));
      const form = await openSignUp();
      await userEvent.type(within(form).getByLabelText("E-post"), "ola@example.no");
      await userEvent.click(within(form).getByRole("button", { name: "Registrer" }));
      await waitFor(() => expect(toast.toastError).toHaveBeenCalledWith("Manglende informasjon", "Vennligst fyll ut alle felt."));
      expect(within(form).getByLabelText("Navn")).toHaveAttribute("aria-invalid", "true");
      expect(fetch).not.toHaveBeenCalled();
    });

    it("a password under 6 characters gets a clear message and is not sent", async () => {
      const fetch = mockFetch(() => jsonResponse({}, 500));
      const form = await openSignUp();
      await userEvent.type(within(form).getByLabelText("Navn"), "Ola");
      await userEvent.type(within(form).getByLabelText("E-post"), "ola@example.no");
      await userEvent.type(within(form).getByLabelText("Passord"), "12345");
      await userEvent.click(within(form).getByRole("button", { name: "Registrer" }));

      const password = within(form).getByLabelText("Passord");
      expect(await within(form).findByText("Passordet må være minst 6 tegn")).toBeInTheDocument();
      expect(password).toHaveAccessibleDescription("Passordet må være minst 6 tegn");
      expect(toast.toastError).toHaveBeenCalledWith("Feil ved registrering", "Passordet må være minst 6 tegn");
      expect(fetch).not.toHaveBeenCalled();
    });

    it("disables the inputs while it runs, sends the postal code, and says 'Registrering vellykket!'", async () => {
      const response = deferred();
      const fetch = mockFetch(() => response.promise);
      const form = await openSignUp();
      await userEvent.type(within(form).getByLabelText("Navn"), "  Ola Nordmann ");
      await userEvent.type(within(form).getByLabelText("E-post"), "Ola@Example.no");
      await userEvent.type(within(form).getByLabelText("Passord"), "hemmelig1");
      await userEvent.type(within(form).getByLabelText("Postnummer (valgfritt)"), "03581");
      await userEvent.click(within(form).getByRole("button", { name: "Registrer" }));

      expect(await within(form).findByRole("button", { name: "Registrerer..." })).toBeDisabled();
      for (const label of ["Navn", "E-post", "Passord", "Postnummer (valgfritt)"]) {
        expect(within(form).getByLabelText(label)).toBeDisabled();
      }
      expect(fetch.mock.calls[0][0]).toBe("/api/auth/signup");
      expect(bodyOf(fetch)).toEqual({ display_name: "Ola Nordmann", email: "ola@example.no", password: "hemmelig1", postal_code: "0358" });

      response.resolve(jsonResponse({ ok: true }, 201));
      await waitFor(() =>
        expect(toast.toastSuccess).toHaveBeenCalledWith("Registrering vellykket!", "Sjekk e-posten din for bekreftelseslink."),
      );
      expect(within(form).getByRole("status")).toHaveTextContent("ola@example.no");
      expect(within(form).getByLabelText("Passord")).toHaveValue("");
      expect(within(form).getByLabelText("Navn")).toBeEnabled();
    });

    it.each([
      [
        "a taken e-mail",
        () => errorBody("EMAIL_TAKEN", "Denne e-postadressen er allerede registrert.", 409),
        ["Bruker eksisterer allerede", "Denne e-postadressen er allerede registrert. Prøv å logge inn i stedet."],
      ],
      [
        "a validation error",
        () => errorBody("VALIDATION", "Vennligst oppgi en gyldig e-postadresse", 400, { email: "Vennligst oppgi en gyldig e-postadresse" }),
        ["Feil ved registrering", "Vennligst oppgi en gyldig e-postadresse"],
      ],
      [
        "rate limiting",
        () => errorBody("RATE_LIMITED", "For mange forsøk. Vent litt og prøv igjen.", 429),
        ["Feil ved registrering", "For mange forsøk. Vent litt og prøv igjen."],
      ],
      [
        "a network failure",
        () => {
          throw new TypeError("Failed to fetch");
        },
        ["Feil", "Noe gikk galt. Prøv igjen."],
      ],
    ])("%s gives the spec's toast", async (_name, answer, expected) => {
      mockFetch(answer);
      const form = await openSignUp();
      await userEvent.type(within(form).getByLabelText("Navn"), "Ola");
      await userEvent.type(within(form).getByLabelText("E-post"), "ola@example.no");
      await userEvent.type(within(form).getByLabelText("Passord"), "hemmelig1");
      await userEvent.click(within(form).getByRole("button", { name: "Registrer" }));
      // Title and text; a failure is handed on with them (its Feilkode, decision 133).
      await waitFor(() => expect(toast.toastError.mock.calls.map((call) => call.slice(0, 2))).toContainEqual(expected));
      expect(toast.toastSuccess).not.toHaveBeenCalled();
    });
  });

  describe("resend confirmation", () => {
    it("without an e-mail: 'Mangler e-post' and no request", async () => {
      const fetch = mockFetch(() => jsonResponse({ ok: true }));
      renderRoutes(routes, { seed: { session: null }, path: "/auth" });
      await userEvent.click(await screen.findByRole("button", { name: "Send bekreftelses-e-post på nytt" }));
      await waitFor(() => expect(toast.toastError).toHaveBeenCalledWith("Mangler e-post", "Skriv inn e-postadressen din først."));
      expect(fetch).not.toHaveBeenCalled();
    });

    it("sends the e-mail field's address, disabling the form meanwhile; then 'Ny bekreftelses-epost sendt'", async () => {
      const response = deferred();
      const fetch = mockFetch(() => response.promise);
      const form = await openSignUp();
      await userEvent.type(within(form).getByLabelText("E-post"), "Ola@example.no");
      await userEvent.click(within(form).getByRole("button", { name: "Send bekreftelses-e-post på nytt" }));
      expect(await within(form).findByRole("button", { name: "Sender..." })).toBeDisabled();
      expect(within(form).getByLabelText("E-post")).toBeDisabled();
      expect(fetch.mock.calls[0][0]).toBe("/api/auth/resend");
      expect(bodyOf(fetch)).toEqual({ email: "ola@example.no" });

      response.resolve(jsonResponse({ ok: true }));
      await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Ny bekreftelses-epost sendt", "Sjekk innboksen (og spam)."));
      expect(within(form).getByLabelText("E-post")).toBeEnabled();
    });

    it("a server refusal: 'Kunne ikke sende e-post' with the message", async () => {
      mockFetch(() => errorBody("RATE_LIMITED", "For mange forsøk. Vent litt og prøv igjen.", 429));
      renderRoutes(routes, { seed: { session: null }, path: "/auth" });
      const form = await screen.findByRole("form", { name: "Logg inn" });
      await userEvent.type(within(form).getByLabelText("E-post"), "kari@example.no");
      await userEvent.click(within(form).getByRole("button", { name: "Send bekreftelses-e-post på nytt" }));
      await waitFor(() =>
        expect(toast.toastError).toHaveBeenCalledWith("Kunne ikke sende e-post", "For mange forsøk. Vent litt og prøv igjen.", {
          error: expect.anything(),
        }),
      );
    });
  });
});

describe("/auth/callback", () => {
  it("without a code: 'Kunne ikke logge inn: Mangler kode i URL.', the tip and a link to /auth", async () => {
    const fetch = mockFetch(() => jsonResponse({}, 500));
    renderRoutes(routes, { seed: { session: null }, path: "/auth/callback" });
    expect(await screen.findByRole("alert")).toHaveTextContent("Kunne ikke logge inn: Mangler kode i URL.");
    expect(screen.getByText(/Lenken kan ha utløpt/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Gå til innlogging" })).toHaveAttribute("href", "/auth");
    expect(fetch).not.toHaveBeenCalled();
  });

  it("shows error_description from the URL without exchanging anything", async () => {
    const fetch = mockFetch(() => jsonResponse({}, 500));
    renderRoutes(routes, { seed: { session: null }, path: "/auth/callback?code=abc&error_description=Email+link+is+invalid" });
    expect(await screen.findByRole("alert")).toHaveTextContent("Kunne ikke logge inn: Email link is invalid");
    expect(fetch).not.toHaveBeenCalled();
  });

  it("a used or expired code shows the server's reason", async () => {
    mockFetch(() => errorBody("INVALID_CODE", "Lenken er ugyldig, allerede brukt eller utløpt.", 400));
    renderRoutes(routes, { seed: { session: null }, path: "/auth/callback?code=used-code" });
    expect(screen.getByRole("status")).toHaveTextContent("Logger inn...");
    expect(await screen.findByRole("alert")).toHaveTextContent("Kunne ikke logge inn: Lenken er ugyldig, allerede brukt eller utløpt.");
  });

  it("a used link opened again while signed in goes on to /min-profil instead of the error", async () => {
    mockFetch(() => errorBody("INVALID_CODE", "Lenken er ugyldig, allerede brukt eller utløpt.", 400));
    const { router } = renderRoutes(routes, { seed: { session: sessionFor() }, path: "/auth/callback?code=used-code" });
    await waitFor(() => expect(router.state.location.pathname).toBe("/min-profil"));
    expect(router.state.historyAction).toBe("REPLACE");
    expect(screen.getByRole("heading", { name: "Min profil" })).toBeInTheDocument();
    expect(screen.queryByText("Innloggingen mislyktes")).not.toBeInTheDocument();
  });

  it("the tab title follows the state: 'Logger inn' only while signing in", async () => {
    const exchange = deferred();
    mockFetch(() => exchange.promise);
    renderRoutes(routes, { seed: { session: null }, path: "/auth/callback?code=used-code" });
    await waitFor(() => expect(document.title).toBe("Logger inn | Lekebytte"));
    exchange.resolve(errorBody("INVALID_CODE", "Lenken er ugyldig, allerede brukt eller utløpt.", 400));
    await screen.findByRole("alert");
    expect(document.title).toBe("Innloggingen mislyktes | Lekebytte");
  });

  it("an exchange that fails without an answer says 'Kunne ikke logge inn.'", async () => {
    mockFetch(() => new Response("<html>Bad gateway</html>", { status: 502 }));
    renderRoutes(routes, { seed: { session: null }, path: "/auth/callback?code=gateway-code" });
    expect(await screen.findByRole("alert")).toHaveTextContent(/^Kunne ikke logge inn: /);
  });

  it("in strict mode: exchanges the code once, stores the session and goes to /min-profil after 400 ms, replacing the entry", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const session = sessionFor();
      const fetch = mockFetch(() => jsonResponse(session));
      const queryClient = createTestQueryClient({ session: null });
      const { router } = renderRoutes(routes, { queryClient, entries: ["/auth", "/auth/callback?code=good-code"], index: 1, strict: true });

      expect(await screen.findByRole("heading", { name: "Du er logget inn" })).toBeInTheDocument();
      expect(fetch).toHaveBeenCalledTimes(1);
      expect(fetch.mock.calls[0][0]).toBe("/api/auth/callback");
      expect(bodyOf(fetch)).toEqual({ code: "good-code" });
      expect(queryClient.getQueryData(["session"])).toEqual(session);
      expect(router.state.location.pathname).toBe("/auth/callback");

      await act(() => vi.advanceTimersByTimeAsync(400));
      await waitFor(() => expect(router.state.location.pathname).toBe("/min-profil"));
      expect(router.state.historyAction).toBe("REPLACE");
      expect(fetch).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
