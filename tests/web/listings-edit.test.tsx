import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { EditListingPage } from "../../web/routes/edit-listing/EditListingPage";
import { apiError, bodyOf, method, mockApi, ownListing, photo, stubBrowserApis, type Route } from "./listingHelpers";
import { jsonResponse, renderRoutes, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

const mine = ownListing({
  title: "Dukkevogn i tre",
  description: "Fin stand",
  category: "dukker",
  age_range: "3-5 år",
  condition_rating: 3,
  price: 400,
  is_free: false,
  is_trade_offer: true,
  postal_code: "0150",
  images: ["u1/a.jpg", "u1/b.jpg"],
});

function renderEdit(...extra: Route[]) {
  const fetch = mockApi(...extra, (url) => (url === `/api/me/listings/${mine.id}` ? jsonResponse(mine) : undefined));
  const user = userEvent.setup();
  const view = renderRoutes(
    [
      { path: "/edit-listing/:listingId", element: <EditListingPage /> },
      { path: "/profile", element: <h1>Min profil</h1> },
    ],
    { seed: { session: sessionFor("user") }, path: `/edit-listing/${mine.id}` },
  );
  return { user, fetch, ...view };
}

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
  stubBrowserApis();
  // Clean-up failures and publish errors are logged as warnings; keep the output quiet.
  vi.spyOn(console, "warn").mockImplementation(() => {});
});

describe("edit listing", () => {
  it("fills the single form 'Rediger annonse' from the owner's listing", async () => {
    renderEdit();
    expect(await screen.findByRole("heading", { level: 1, name: "Rediger annonse" })).toBeInTheDocument();
    expect(await screen.findByLabelText("Tittel")).toHaveValue("Dukkevogn i tre");
    expect(screen.getByLabelText("Beskrivelse (valgfritt)")).toHaveValue("Fin stand");
    expect(screen.getByRole("radio", { name: "Dukker" })).toBeChecked();
    expect(screen.getByRole("radio", { name: "3-5 år" })).toBeChecked();
    expect(screen.getByRole("radio", { name: "God Lette bruksspor" })).toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Gi bort" })).not.toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Åpen for bytte" })).toBeChecked();
    expect(screen.getByLabelText("Pris (kr)")).toHaveValue("400");
    expect(screen.getByLabelText("Postnummer")).toHaveValue("0150");
    expect(screen.getByRole("heading", { name: "Bilder (2/5)" })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Bilde 1" })).toHaveAttribute("src", "/images/u1/a.jpg");
  });

  it("ticking 'Gi bort' hides and clears the price, and saves with price null", async () => {
    const { user, fetch, router } = renderEdit((url, init) =>
      url === `/api/listings/${mine.id}` && method(init) === "PUT" ? jsonResponse({ ...mine }) : undefined,
    );
    await user.click(await screen.findByRole("checkbox", { name: "Gi bort" }));
    expect(screen.queryByLabelText("Pris (kr)")).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Oppdater annonse" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/profile"));
    const [, init] = fetch.mock.calls.find(([url, i]) => url === `/api/listings/${mine.id}` && method(i) === "PUT")!;
    expect(bodyOf(init)).toMatchObject({ is_free: true, price: null });
  });

  it("saves the changes: 'Annonse oppdatert!' and back to /profile", async () => {
    const { user, fetch, router } = renderEdit((url, init) =>
      url === `/api/listings/${mine.id}` && method(init) === "PUT" ? jsonResponse({ ...mine, title: "Dukkevogn med dyne" }) : undefined,
    );
    const title = await screen.findByLabelText("Tittel");
    await user.clear(title);
    await user.type(title, "Dukkevogn med dyne");
    await user.click(screen.getByRole("button", { name: "Oppdater annonse" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/profile"));
    expect(toast.toastSuccess).toHaveBeenCalledWith("Annonse oppdatert!");
    const [, init] = fetch.mock.calls.find(([url, i]) => url === `/api/listings/${mine.id}` && method(i) === "PUT")!;
    expect(bodyOf(init)).toMatchObject({
      title: "Dukkevogn med dyne",
      category: "dukker",
      condition_rating: 3,
      price: 400,
      is_trade_offer: true,
      images: ["u1/a.jpg", "u1/b.jpg"],
    });
  });

  it("validates with the schema's messages before saving", async () => {
    const { user, fetch } = renderEdit();
    const title = await screen.findByLabelText("Tittel");
    await user.clear(title);
    await user.type(title, "Ab");
    await user.clear(screen.getByLabelText("Postnummer"));
    await user.type(screen.getByLabelText("Postnummer"), "12");
    await user.click(screen.getByRole("button", { name: "Oppdater annonse" }));
    expect(await screen.findByText("Tittel må være minst 3 tegn")).toBeInTheDocument();
    expect(screen.getByText("Postnummer må være minst 4 siffer")).toBeInTheDocument();
    expect(fetch.mock.calls.some(([, init]) => method(init) === "PUT")).toBe(false);
  });

  it("a failed save says 'Kunne ikke oppdatere annonse' and stays", async () => {
    const { user, router } = renderEdit((_url, init) =>
      method(init) === "PUT" ? apiError(500, "INTERNAL", "Noe gikk galt. Prøv igjen.") : undefined,
    );
    await screen.findByLabelText("Tittel");
    await user.click(screen.getByRole("button", { name: "Oppdater annonse" }));
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke oppdatere annonse", { error: expect.anything() }),
    );
    expect(router.state.location.pathname).toBe(`/edit-listing/${mine.id}`);
  });

  it("a listing held by a trade or the give-away queue: the server's refusal is shown beside the button, and the form stays", async () => {
    const held = "Leken er reservert eller gitt bort gjennom gi bort-køen. Nå kan du bare rette tittel og beskrivelse.";
    const { user, router } = renderEdit((_url, init) => (method(init) === "PUT" ? apiError(409, "CONFLICT", held) : undefined));
    await user.type(await screen.findByLabelText("Pris (kr)"), "0");
    await user.click(screen.getByRole("button", { name: "Oppdater annonse" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(held);
    expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke oppdatere annonse", { error: expect.anything() });
    expect(router.state.location.pathname).toBe(`/edit-listing/${mine.id}`);
    expect(screen.getByLabelText("Pris (kr)")).toHaveValue("4000");
  });

  it("removing a saved photo only takes it out of the form (the server deletes it on save)", async () => {
    const { user, fetch } = renderEdit();
    await user.click(await screen.findByRole("button", { name: "Fjern bilde 1" }));
    expect(screen.getByRole("heading", { name: "Bilder (1/5)" })).toBeInTheDocument();
    expect(toast.toastSuccess).toHaveBeenCalledWith("Bilde fjernet", "Endringen lagres når du oppdaterer annonsen.");
    expect(fetch.mock.calls.some(([, init]) => method(init) === "DELETE")).toBe(false);
  });

  it("adds photos at once ('Bilder lagt til'); removing a new one deletes the upload", async () => {
    const { user, fetch } = renderEdit((url, init) => {
      if (url === "/api/images" && method(init) === "POST") return jsonResponse({ key: "u1/ny.jpg", type: "image/jpeg" }, 201);
      if (url === "/api/images/u1/ny.jpg" && method(init) === "DELETE") return new Response(null, { status: 204 });
    });
    await user.upload(await screen.findByLabelText("Legg til bilder"), photo("ny.jpg"));
    expect(await screen.findByRole("heading", { name: "Bilder (3/5)" })).toBeInTheDocument();
    expect(toast.toastSuccess).toHaveBeenCalledWith("Bilder lagt til");
    expect(screen.getByRole("img", { name: "Bilde 3" })).toHaveAttribute("src", "/images/u1/ny.jpg");

    await user.click(screen.getByRole("button", { name: "Fjern bilde 3" }));
    await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Bilde fjernet"));
    expect(fetch.mock.calls.some(([url, init]) => url === "/api/images/u1/ny.jpg" && method(init) === "DELETE")).toBe(true);
    expect(screen.getByRole("heading", { name: "Bilder (2/5)" })).toBeInTheDocument();
  });

  it("leaving without saving deletes the photos uploaded during the visit", async () => {
    const { user, fetch, unmount } = renderEdit((url, init) => {
      if (url === "/api/images" && method(init) === "POST") return jsonResponse({ key: "u1/ulagret.jpg", type: "image/jpeg" }, 201);
      if (method(init) === "DELETE") return new Response(null, { status: 204 });
    });
    await user.upload(await screen.findByLabelText("Legg til bilder"), photo("ulagret.jpg"));
    expect(await screen.findByRole("heading", { name: "Bilder (3/5)" })).toBeInTheDocument();
    unmount();
    await waitFor(() =>
      expect(fetch.mock.calls.some(([url, init]) => url === "/api/images/u1/ulagret.jpg" && method(init) === "DELETE")).toBe(true),
    );
    // Saved photos are never touched.
    expect(fetch.mock.calls.filter(([, init]) => method(init) === "DELETE")).toHaveLength(1);
  });

  it("upload and removal failures say 'Kunne ikke laste opp bilde' and 'Kunne ikke fjerne bilde'", async () => {
    let uploads = 0;
    const { user } = renderEdit((url, init) => {
      if (url === "/api/images" && method(init) === "POST") {
        uploads++;
        return uploads === 1
          ? jsonResponse({ key: "u1/ny.jpg", type: "image/jpeg" }, 201)
          : apiError(415, "UNSUPPORTED_MEDIA_TYPE", "Kun JPEG, PNG og WebP er tillatt");
      }
      if (method(init) === "DELETE") return apiError(500, "INTERNAL", "Noe gikk galt. Prøv igjen.");
    });
    await user.upload(await screen.findByLabelText("Legg til bilder"), [photo("ok.jpg"), photo("feil.jpg")]);
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke laste opp bilde: Kun JPEG, PNG og WebP er tillatt", {
        error: expect.anything(),
      }),
    );
    expect(toast.toastSuccess).toHaveBeenCalledWith("Bilder lagt til");
    expect(screen.getByRole("heading", { name: "Bilder (3/5)" })).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Fjern bilde 3" }));
    await waitFor(() => expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke fjerne bilde", { error: expect.anything() }));
    expect(screen.getByRole("heading", { name: "Bilder (3/5)" })).toBeInTheDocument();
  });

  it("keeps to five photos", async () => {
    let n = 0;
    const { user } = renderEdit((url, init) =>
      url === "/api/images" && method(init) === "POST" ? jsonResponse({ key: `u1/ny-${++n}.jpg`, type: "image/jpeg" }, 201) : undefined,
    );
    // Two saved + four chosen: three fit.
    await user.upload(await screen.findByLabelText("Legg til bilder"), [photo("1.jpg"), photo("2.jpg"), photo("3.jpg"), photo("4.jpg")]);
    expect(toast.toastError).toHaveBeenCalledWith("For mange bilder", "Du kan bare laste opp 3 bilder til");
    expect(await screen.findByRole("heading", { name: "Bilder (5/5)" })).toBeInTheDocument();
    expect(screen.queryByLabelText("Legg til bilder")).not.toBeInTheDocument();
  });

  it("someone else's listing: 'Kunne ikke hente annonse' with the spec's text, then /profile", async () => {
    mockApi((url) =>
      url.startsWith("/api/me/listings/")
        ? apiError(403, "FORBIDDEN", "Annonsen ble ikke funnet eller du har ikke tilgang til den.")
        : undefined,
    );
    const { router } = renderRoutes(
      [
        { path: "/edit-listing/:listingId", element: <EditListingPage /> },
        { path: "/profile", element: <h1>Min profil</h1> },
      ],
      { seed: { session: sessionFor("user") }, path: "/edit-listing/not-mine" },
    );
    await waitFor(() => expect(router.state.location.pathname).toBe("/profile"));
    expect(toast.toastError).toHaveBeenCalledWith(
      "Kunne ikke hente annonse",
      "Annonsen ble ikke funnet eller du har ikke tilgang til den.",
      {
        id: "edit-listing-load",
        error: expect.anything(),
      },
    );
  });
});
