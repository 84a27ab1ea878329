// "Logg inn med Vipps" in the web: the button on /auth, /auth/vipps (signed in, a matched account's
// proof, the mailed link, a refusal) and the profile's Vipps section, against the Worker's answers.
// Each test has its own state: the page hands a state to the Worker once per page life.
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { RouteObject } from "react-router-dom";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { VIPPS_LOGIN_REFUSALS } from "../../domain/vipps-login";
import { SellerCard } from "../../web/components/SellerCard";
import { AuthPage } from "../../web/routes/auth/AuthPage";
import { VippsCallbackPage } from "../../web/routes/auth/VippsCallbackPage";
import { VippsSection } from "../../web/routes/profile/VippsSection";
import { sessionBody, siteConfigBody } from "../factories/api";
import { jsonResponse, mockFetch, renderRoutes, renderWithProviders } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

const routes: RouteObject[] = [
  { path: "/", element: <h1>Forsiden</h1> },
  { path: "/auth", element: <AuthPage /> },
  { path: "/auth/vipps", element: <VippsCallbackPage /> },
  { path: "/min-profil", element: <h1>Min profil</h1> },
  { path: "/profile", element: <h1>Min profil</h1> },
  { path: "/lagrede-sok", element: <h1>Lagrede søk</h1> },
];

const signedIn = { status: "signed_in", session: sessionBody(), next: null };

function bodyOf(fetch: ReturnType<typeof mockFetch>, url: string): unknown {
  const call = fetch.mock.calls.find(([input]) => String(input).endsWith(url));
  return call ? JSON.parse(String(call[1]?.body)) : undefined;
}

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

describe("/auth", () => {
  it("offers 'Logg inn med Vipps' above the e-mail sign-in where the Worker has Vipps Login", async () => {
    renderRoutes(routes, { seed: { session: null }, path: "/auth" });
    expect(await screen.findByRole("button", { name: "Logg inn med Vipps" })).toBeEnabled();
    expect(screen.getByText("eller med e-post")).toBeInTheDocument();
  });

  it("has no Vipps button where it is not set up", async () => {
    renderRoutes(routes, { seed: { session: null, config: siteConfigBody({ vippsLogin: false }) }, path: "/auth" });
    expect(await screen.findByRole("tab", { name: "Logg inn" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Logg inn med Vipps" })).not.toBeInTheDocument();
  });
});

describe("/auth/vipps", () => {
  it("hands the code and state to the Worker and goes on to where the login started", async () => {
    const fetch = mockFetch((url) => {
      if (url.endsWith("/api/auth/vipps/callback")) return jsonResponse({ ...signedIn, next: "/lagrede-sok" });
      return jsonResponse(null);
    });
    renderRoutes(routes, { seed: { session: null }, path: "/auth/vipps?code=kode-fra-vipps&state=tilstand-123&scope=openid" });
    expect(await screen.findByRole("heading", { name: "Lagrede søk" })).toBeInTheDocument();
    expect(bodyOf(fetch, "/api/auth/vipps/callback")).toEqual({ state: "tilstand-123", code: "kode-fra-vipps" });
    expect(toast.toastSuccess).toHaveBeenCalledWith("Velkommen tilbake!", "Du er nå logget inn.");
  });

  it("shows the Worker's refusal with a way back to sign in", async () => {
    mockFetch(() => jsonResponse({ error: { code: "VALIDATION", message: VIPPS_LOGIN_REFUSALS.cancelled } }, 400));
    renderRoutes(routes, { seed: { session: null }, path: "/auth/vipps?error=access_denied&state=tilstand-avbrutt" });
    expect(await screen.findByRole("alert")).toHaveTextContent(VIPPS_LOGIN_REFUSALS.cancelled);
    expect(screen.getByRole("heading", { name: "Innloggingen med Vipps mislyktes" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Gå til innlogging" })).toHaveAttribute("href", "/auth");
  });

  it("asks a matched account for its password (a wrong one under the field), then signs in to the profile", async () => {
    let tries = 0;
    const fetch = mockFetch((url) => {
      if (url.endsWith("/api/auth/vipps/callback")) return jsonResponse({ status: "link_required", email: "kari@example.no" });
      if (url.endsWith("/api/auth/vipps/link") && (tries += 1) === 1)
        return jsonResponse(
          {
            error: { code: "INVALID_CREDENTIALS", message: "Feil passord. Prøv igjen.", fields: { password: "Feil passord. Prøv igjen." } },
          },
          400,
        );
      if (url.endsWith("/api/auth/vipps/link")) return jsonResponse(signedIn);
      return jsonResponse(null);
    });
    renderRoutes(routes, { seed: { session: null }, path: "/auth/vipps?code=k&state=tilstand-konto" });
    expect(await screen.findByRole("heading", { name: "Bekreft kontoen din" })).toBeInTheDocument();
    expect(screen.getByText("kari@example.no")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Passord"), "feil");
    await userEvent.click(screen.getByRole("button", { name: "Bekreft og koble til Vipps" }));
    expect(await screen.findByText("Feil passord. Prøv igjen.")).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText("Passord"));
    await userEvent.type(screen.getByLabelText("Passord"), "riktig-passord");
    await userEvent.click(screen.getByRole("button", { name: "Bekreft og koble til Vipps" }));
    expect(await screen.findByRole("heading", { name: "Min profil" })).toBeInTheDocument();
    expect(bodyOf(fetch, "/api/auth/vipps/link")).toEqual({ password: "feil" });
    expect(toast.toastSuccess).toHaveBeenCalledWith("Vipps er koblet til", expect.stringContaining("logge inn med Vipps"));
  });

  it("sends a matched account the link by e-mail on request", async () => {
    const fetch = mockFetch((url) => {
      if (url.endsWith("/api/auth/vipps/link")) return jsonResponse({ email: "kari@example.no" });
      if (url.endsWith("/api/auth/vipps/link/mail")) return jsonResponse({ ok: true, message: "sendt" });
      return jsonResponse(null);
    });
    renderRoutes(routes, { seed: { session: null }, path: "/auth/vipps?bekreft=1" });
    await userEvent.click(await screen.findByRole("button", { name: "Send meg en lenke" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Vi har sendt deg en e-post med en lenke.");
    expect(fetch.mock.calls.some(([url]) => String(url).endsWith("/api/auth/vipps/link/mail"))).toBe(true);
  });

  it("the mailed link links and signs in", async () => {
    const fetch = mockFetch((url) => (url.endsWith("/api/auth/vipps/link/confirm") ? jsonResponse(signedIn) : jsonResponse(null)));
    renderRoutes(routes, { seed: { session: null }, path: "/auth/vipps?koble=kode-fra-e-posten" });
    expect(await screen.findByRole("heading", { name: "Min profil" })).toBeInTheDocument();
    expect(bodyOf(fetch, "/api/auth/vipps/link/confirm")).toEqual({ code: "kode-fra-e-posten" });
  });
});

describe("the profile's Vipps section", () => {
  const status = { linked: true, linked_at: "2026-11-01T10:00:00.000Z", phone: "4791234567", phone_verified: true, has_password: true };

  it("shows the phone Vipps verified and 'Koble fra Vipps'", async () => {
    mockFetch(() => jsonResponse(status));
    renderWithProviders(<VippsSection />, { seed: { session: sessionBody() } });
    expect(await screen.findByText("+47 912 34 567")).toBeInTheDocument();
    expect(screen.getByText("Verifisert med Vipps")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Koble fra Vipps" })).toBeInTheDocument();
  });

  it("offers no unlinking when Vipps is the account's only way in", async () => {
    mockFetch(() => jsonResponse({ ...status, has_password: false }));
    renderWithProviders(<VippsSection />, { seed: { session: sessionBody() } });
    expect(await screen.findByText(VIPPS_LOGIN_REFUSALS.noPassword)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Koble fra Vipps" })).not.toBeInTheDocument();
  });

  it("offers 'Koble til Vipps' to an account without the link", async () => {
    mockFetch(() => jsonResponse({ ...status, linked: false, linked_at: null, phone: null, phone_verified: false }));
    renderWithProviders(<VippsSection />, { seed: { session: sessionBody() } });
    await userEvent.click(await screen.findByRole("button", { name: "Koble til Vipps" }));
    await waitFor(() => expect(screen.getByRole("alertdialog", { name: "Koble til Vipps" })).toBeInTheDocument());
  });
});

describe("the seller card", () => {
  it("shows 'Verifisert med Vipps' for a seller whose phone Vipps verified", () => {
    renderWithProviders(
      <SellerCard name="Ola" profile={{ user_id: "u1", rating: { average: null, count: 0 }, phone_verified: true }}>
        Medlem siden 2024
      </SellerCard>,
    );
    expect(screen.getByText("Verifisert med Vipps")).toBeInTheDocument();
  });
});
