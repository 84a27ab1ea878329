// A server error's request id (the Worker's X-Request-Id) is shown as "Feilkode: {id}" where the web
// shows the failure (docs/decisions/133-request-logs.md): in the error toast, in a list that could
// not be loaded and in the home page's failed listings. A refusal (4xx) and a failed connection show none.
import { act, screen, within } from "@testing-library/react";
import { render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { api, call } from "../../web/api/client";
import { serverErrorId } from "../../web/components/ErrorCode";
import { Toaster } from "../../web/components/Toaster";
import { toastError } from "../../web/lib/toast";
import { toastStore } from "../../web/lib/toastStore";
import { FavouritesPage } from "../../web/routes/favourites/FavouritesPage";
import { HomePage } from "../../web/routes/home/HomePage";
import { allowConsoleError } from "./console";
import { errorBody } from "../factories/api";
import { jsonResponse, mockFetch, renderRoutes, renderWithProviders, sessionFor } from "./utils";

const REQUEST_ID = "8f1c2d3e4a5b6c7d-OSL";

/** An answer of the Worker's with its request id. */
function answer(status: number, code: Parameters<typeof errorBody>[0], message: string): Response {
  const res = jsonResponse(errorBody(code, message), status);
  res.headers.set("X-Request-Id", REQUEST_ID);
  return res;
}

/** The error `call` throws for an answer. */
async function failure(res: Response | (() => Promise<Response>)): Promise<unknown> {
  mockFetch(() => (typeof res === "function" ? res() : res));
  return call(api.home.$get()).catch((error: unknown) => error);
}

afterEach(() => act(() => toastStore.get().forEach((t) => toastStore.dismiss(t.key))));

// The first toast loads the list's code (its own chunk): on a busy machine that can take a while.
const toasts = () => screen.findByRole("region", { name: /Varsler/ }, { timeout: 5_000 });

describe("Feilkode", () => {
  it("the client keeps a server error's request id; a refusal and a lost connection have none to show", async () => {
    const server = await failure(answer(500, "INTERNAL", "Noe gikk galt. Prøv igjen."));
    expect(server).toMatchObject({ status: 500, requestId: REQUEST_ID });
    expect(serverErrorId(server)).toBe(REQUEST_ID);
    expect(serverErrorId(await failure(answer(409, "CONFLICT", "Annonsen er allerede solgt")))).toBeNull();
    expect(serverErrorId(await failure(() => Promise.reject(new TypeError("Failed to fetch"))))).toBeNull();
  });

  it("an error toast for a server error shows 'Feilkode: {id}'; one for a refusal does not", async () => {
    render(<Toaster />);
    const server = await failure(answer(502, "PROVIDER_ERROR", "Kunne ikke starte betalingsprosessen. Prøv igjen."));
    act(() => toastError("Feil ved betaling", "Kunne ikke starte betalingsprosessen. Prøv igjen.", { error: server }));
    const list = await toasts();
    const card = (await within(list).findByText("Feil ved betaling")).closest("li")!;
    expect(within(card).getByText(`Feilkode: ${REQUEST_ID}`)).toBeInTheDocument();

    const refusal = await failure(answer(409, "CONFLICT", "Annonsen er allerede solgt"));
    act(() => toastError("Feil", "Annonsen er allerede solgt", { error: refusal }));
    const second = (await within(list).findByText("Annonsen er allerede solgt")).closest("li")!;
    expect(within(second).queryByText(/Feilkode/)).toBeNull();
  });

  it("a list that could not be loaded shows the server error's Feilkode beside 'Prøv igjen'", async () => {
    mockFetch((url) => (url.startsWith("/api/favourites") ? answer(500, "INTERNAL", "Noe gikk galt. Prøv igjen.") : jsonResponse({})));
    renderRoutes([{ path: "/favoritter", element: <FavouritesPage /> }], { seed: { session: sessionFor("user") }, path: "/favoritter" });
    expect(await screen.findByRole("button", { name: "Prøv igjen" }, { timeout: 3_000 })).toBeInTheDocument();
    expect(screen.getByText(`Feilkode: ${REQUEST_ID}`)).toBeInTheDocument();
  });

  it("the home page's failed listings show the server error's Feilkode", async () => {
    allowConsoleError();
    mockFetch(() => answer(500, "INTERNAL", "Noe gikk galt. Prøv igjen."));
    renderWithProviders(<HomePage />, { seed: { session: null } });
    expect(await screen.findByRole("heading", { name: "Kunne ikke hente annonser" })).toBeInTheDocument();
    expect(screen.getByText(`Feilkode: ${REQUEST_ID}`)).toBeInTheDocument();
  });
});
