import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { CreateListingPage } from "../../web/routes/create-listing/CreateListingPage";
import { apiError, bodyOf, deferred, imagesRoute, method, mockApi, photo, stubBrowserApis, wizardProfile } from "./listingHelpers";
import { jsonResponse, renderRoutes, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

const ME_ID = sessionFor("user").user.id;

const profile = wizardProfile;

function renderWizard() {
  // The picker's accept attribute is the browser's hint; the wizard checks types itself.
  const user = userEvent.setup({ applyAccept: false });
  const result = renderRoutes(
    [
      { path: "/create-listing", element: <CreateListingPage /> },
      { path: "/", element: <h1>Forsiden</h1> },
    ],
    { seed: { session: sessionFor("user") }, path: "/create-listing" },
  );
  return { user, ...result };
}

const next = () => screen.getByRole("button", { name: "Neste" });

async function toStep(user: ReturnType<typeof userEvent.setup>, step: 2 | 3 | 4) {
  await user.upload(screen.getByLabelText("Velg bilder"), [photo("a.jpg"), photo("b.png", "image/png")]);
  await user.click(next());
  await screen.findByText("Steg 2 av 4");
  if (step === 2) return;
  await user.type(screen.getByLabelText("Tittel"), "Brio togbane");
  await user.click(next());
  await screen.findByText("Steg 3 av 4");
  if (step === 3) return;
  await user.click(screen.getByRole("radio", { name: "Lego" }));
  await user.click(screen.getByRole("radio", { name: "3-5 år" }));
  await user.click(screen.getByRole("radio", { name: /Meget god/ }));
  await user.click(next());
  await screen.findByText("Steg 4 av 4");
}

beforeEach(() => {
  localStorage.clear();
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
  stubBrowserApis();
  // Clean-up failures and publish errors are logged as warnings; keep the output quiet.
  vi.spyOn(console, "warn").mockImplementation(() => {});
});

describe("create wizard: steps", () => {
  it("shows 'Ny annonse', 'Steg 1 av 4' and a progress bar", () => {
    mockApi(profile, imagesRoute());
    renderWizard();
    expect(screen.getByRole("heading", { level: 1, name: "Ny annonse" })).toBeInTheDocument();
    expect(screen.getByText("Steg 1 av 4")).toBeInTheDocument();
    const bar = screen.getByRole("progressbar");
    expect(bar).toHaveAttribute("aria-valuenow", "1");
    expect(bar).toHaveAttribute("aria-valuemin", "1");
    expect(bar).toHaveAttribute("aria-valuemax", "4");
  });

  it("step 1 → 2 needs at least one photo", async () => {
    mockApi(profile, imagesRoute());
    const { user } = renderWizard();
    await user.click(next());
    expect(screen.getByText("Du må laste opp minst ett bilde")).toBeInTheDocument();
    expect(toast.toastError).toHaveBeenCalledWith("Feil", "Du må laste opp minst ett bilde");
    expect(screen.getByText("Steg 1 av 4")).toBeInTheDocument();

    await user.upload(screen.getByLabelText("Velg bilder"), photo("bamse.jpg"));
    expect(screen.getByRole("img", { name: "Bilde 1: bamse.jpg" })).toHaveAttribute("src", "blob:test/1");
    await user.click(next());
    expect(await screen.findByText("Steg 2 av 4")).toBeInTheDocument();
    expect(screen.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "2");
  });

  it("rejects wrong types and files over 5 MB with the file's name, and drops photos beyond five", async () => {
    mockApi(profile, imagesRoute());
    const { user } = renderWizard();
    await user.upload(screen.getByLabelText("Velg bilder"), [
      photo("anim.gif", "image/gif"),
      photo("stor.jpg", "image/jpeg", 5 * 1024 * 1024 + 1),
      photo("ok.webp", "image/webp"),
    ]);
    expect(toast.toastError).toHaveBeenCalledWith(
      "Feil med bildefiler",
      "anim.gif: Kun JPEG, PNG og WebP er tillatt\nstor.jpg: Filen er for stor (maks 5MB)",
    );
    expect(screen.getByRole("list", { name: "Valgte bilder (1 av 5)" })).toBeInTheDocument();

    await user.upload(
      screen.getByLabelText("Velg bilder"),
      ["1", "2", "3", "4", "5", "6"].map((n) => photo(`${n}.jpg`)),
    );
    expect(toast.toastError).toHaveBeenCalledWith("For mange bilder", "Du kan bare laste opp 4 bilder til");
    expect(screen.getByRole("list", { name: "Valgte bilder (5 av 5)" })).toBeInTheDocument();
    expect(screen.getByLabelText("Du har valgt fem bilder")).toBeDisabled();

    await user.click(screen.getByRole("button", { name: "Fjern bilde 1" }));
    expect(screen.getByRole("list", { name: "Valgte bilder (4 av 5)" })).toBeInTheDocument();
    expect(URL.revokeObjectURL).toHaveBeenCalled();
  });

  it("step 2 → 3 needs a title of at least 3 characters (blank is not enough)", async () => {
    mockApi(profile, imagesRoute());
    const { user } = renderWizard();
    await toStep(user, 2);
    await user.type(screen.getByLabelText("Tittel"), "   ");
    await user.click(next());
    expect(await screen.findByText("Tittel må være minst 3 tegn")).toBeInTheDocument();
    expect(screen.getByText("Steg 2 av 4")).toBeInTheDocument();
    await user.clear(screen.getByLabelText("Tittel"));
    await user.type(screen.getByLabelText("Tittel"), "Ab");
    await user.click(next());
    expect(await screen.findByText("Tittel må være minst 3 tegn")).toBeInTheDocument();
    await user.type(screen.getByLabelText("Tittel"), "c");
    await user.click(next());
    expect(await screen.findByText("Steg 3 av 4")).toBeInTheDocument();
  });

  it("step 3 → 4 needs category, age group and condition", async () => {
    mockApi(profile, imagesRoute());
    const { user } = renderWizard();
    await toStep(user, 3);
    await user.click(next());
    expect(await screen.findByText("Velg en kategori")).toBeInTheDocument();
    expect(screen.getByText("Velg aldersgruppe")).toBeInTheDocument();
    expect(screen.getByText("Velg tilstand")).toBeInTheDocument();

    // Every condition shows its label and description.
    expect(screen.getByRole("radio", { name: "Meget god Minimale bruksspor" })).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Utmerket Som ny" })).toBeInTheDocument();
    expect(screen.getAllByRole("radio", { name: /år$/ }).map((r) => (r as HTMLInputElement).value)).toEqual([
      "0-2 år",
      "3-5 år",
      "6-8 år",
      "9-12 år",
      "12+ år",
    ]);

    await user.click(screen.getByRole("radio", { name: "Biler" }));
    await user.click(screen.getByRole("radio", { name: "6-8 år" }));
    await user.click(next());
    expect(await screen.findByText("Velg tilstand")).toBeInTheDocument();
    expect(screen.queryByText("Velg en kategori")).not.toBeInTheDocument();
    await user.click(screen.getByRole("radio", { name: /^God/ }));
    await user.click(next());
    expect(await screen.findByText("Steg 4 av 4")).toBeInTheDocument();
  });

  it("the back arrow goes to the previous step, and to / from step 1", async () => {
    mockApi(profile, imagesRoute());
    const { user, router } = renderWizard();
    await toStep(user, 2);
    await user.click(screen.getByRole("button", { name: "Tilbake til forrige steg" }));
    expect(screen.getByText("Steg 1 av 4")).toBeInTheDocument();
    // The chosen photos are still there.
    expect(screen.getByRole("list", { name: "Valgte bilder (2 av 5)" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Tilbake til forsiden" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
  });

  it("ticking 'Gi bort' clears the price and hides the field; the preview says Gratis", async () => {
    mockApi(profile, imagesRoute());
    const { user } = renderWizard();
    await toStep(user, 4);
    const preview = screen.getByRole("region", { name: "Forhåndsvisning" });
    await user.type(screen.getByLabelText("Pris (kr)"), "250");
    expect(within(preview).getByText("250 kr")).toBeInTheDocument();

    await user.click(screen.getByRole("checkbox", { name: "Gi bort" }));
    expect(screen.queryByLabelText("Pris (kr)")).not.toBeInTheDocument();
    expect(within(preview).getByText("Gratis")).toBeInTheDocument();
    expect(within(preview).getByText("Gi bort")).toBeInTheDocument();

    await user.click(screen.getByRole("checkbox", { name: "Gi bort" }));
    expect(screen.getByLabelText("Pris (kr)")).toHaveValue("");
  });

  it("starts from the profile's postal code", async () => {
    mockApi(profile, imagesRoute());
    const { user } = renderWizard();
    await toStep(user, 4);
    expect(screen.getByLabelText("Postnummer")).toHaveValue("0150");
  });
});

describe("create wizard: publishing", () => {
  it("uploads the photos ('Laster opp bilder...'), publishes ('Publiserer annonse...') and goes home", async () => {
    const upload = deferred<Response>();
    const create = deferred<Response>();
    let uploads = 0;
    const fetch = mockApi(profile, (url, init) => {
      if (url === "/api/images" && method(init) === "POST") {
        uploads++;
        return uploads === 1 ? upload.promise : jsonResponse({ key: "u1/2.png", type: "image/png" }, 201);
      }
      if (url === "/api/listings" && method(init) === "POST") return create.promise;
    });
    const { user, router } = renderWizard();
    await toStep(user, 4);
    await user.type(screen.getByLabelText("Pris (kr)"), "350");
    await user.click(screen.getByRole("checkbox", { name: "Åpen for bytte" }));
    await user.click(screen.getByRole("button", { name: "Publiser annonse" }));

    expect(await screen.findByRole("button", { name: "Laster opp bilder..." })).toBeDisabled();
    upload.resolve(jsonResponse({ key: "u1/1.jpg", type: "image/jpeg" }, 201));
    expect(await screen.findByRole("button", { name: "Publiserer annonse..." })).toBeDisabled();
    create.resolve(jsonResponse({ id: "new" }, 201));

    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(toast.toastSuccess).toHaveBeenCalledWith("Bilder lastet opp");
    expect(toast.toastSuccess).toHaveBeenCalledWith("Suksess!", "Annonsen din er publisert");

    const imageCalls = fetch.mock.calls.filter(([url]) => url === "/api/images");
    expect(imageCalls.map(([, init]) => new Headers(init?.headers).get("Content-Type"))).toEqual(["image/jpeg", "image/png"]);
    const [, createInit] = fetch.mock.calls.find(([url]) => url === "/api/listings")!;
    expect(bodyOf(createInit)).toMatchObject({
      title: "Brio togbane",
      category: "lego",
      age_range: "3-5 år",
      condition_rating: 4,
      price: 350,
      is_free: false,
      is_trade_offer: true,
      postal_code: "0150",
      images: ["u1/1.jpg", "u1/2.png"],
    });
  });

  it("photos upload when chosen; a failed upload names the photo and drops it, the others stay", async () => {
    let uploads = 0;
    const fetch = mockApi(profile, (url, init) => {
      if (url === "/api/images" && method(init) === "POST") {
        uploads++;
        return uploads === 1
          ? jsonResponse({ key: "u1/1.jpg", type: "image/jpeg" }, 201)
          : apiError(413, "PAYLOAD_TOO_LARGE", "Filen er for stor (maks 5MB)");
      }
    });
    const { user, router } = renderWizard();
    await user.upload(screen.getByLabelText("Velg bilder"), [photo("a.jpg"), photo("b.png", "image/png")]);

    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Feil", "Feil ved opplasting av bilde 2: Filen er for stor (maks 5MB)", {
        error: expect.anything(),
      }),
    );
    expect(await screen.findByRole("list", { name: "Valgte bilder (1 av 5)" })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Bilde 1: a.jpg" })).toBeInTheDocument();
    expect(fetch.mock.calls.filter(([url]) => url === "/api/images")).toHaveLength(2);
    expect(fetch.mock.calls.some(([, init]) => method(init) === "DELETE")).toBe(false);
    expect(router.state.location.pathname).toBe("/create-listing");
  });

  it("a publish failure says so and keeps the uploaded photos for another try", async () => {
    let fail = true;
    const fetch = mockApi(profile, imagesRoute(), (url, init) => {
      if (url === "/api/listings" && method(init) === "POST")
        return fail ? apiError(500, "INTERNAL", "Noe gikk galt. Prøv igjen.") : jsonResponse({ id: "new" }, 201);
    });
    const { user, router } = renderWizard();
    await toStep(user, 4);
    await user.click(screen.getByRole("button", { name: "Publiser annonse" }));

    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Feil", "Kunne ikke publisere annonsen. Prøv igjen.", { error: expect.anything() }),
    );
    expect(toast.toastSuccess).not.toHaveBeenCalledWith("Suksess!", "Annonsen din er publisert");
    expect(fetch.mock.calls.some(([, init]) => method(init) === "DELETE")).toBe(false);

    fail = false;
    await user.click(await screen.findByRole("button", { name: "Publiser annonse" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    const creates = fetch.mock.calls.filter(([url]) => url === "/api/listings");
    expect(bodyOf(creates[1][1])).toMatchObject({ images: ["u1/1.jpg", "u1/2.jpg"] });
    expect(fetch.mock.calls.filter(([url]) => url === "/api/images")).toHaveLength(2);
  });

  it("a free listing is sent without a price", async () => {
    const fetch = mockApi(profile, imagesRoute(), (url, init) => {
      if (url === "/api/listings" && method(init) === "POST") return jsonResponse({ id: "new" }, 201);
    });
    const { user, router } = renderWizard();
    await toStep(user, 4);
    await user.type(screen.getByLabelText("Pris (kr)"), "99");
    await user.click(screen.getByRole("checkbox", { name: "Gi bort" }));
    await user.click(screen.getByRole("button", { name: "Publiser annonse" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    const [, init] = fetch.mock.calls.find(([url]) => url === "/api/listings")!;
    expect(bodyOf(init)).toMatchObject({ is_free: true, price: null });
  });
});

describe("create wizard: history and draft", () => {
  it("each step is a history entry: the browser's Back goes one step back, Forward one on", async () => {
    mockApi(profile, imagesRoute());
    const { user, router } = renderWizard();
    await toStep(user, 3);
    expect(router.state.location.search).toBe("?steg=3");
    await act(() => router.navigate(-1));
    expect(await screen.findByText("Steg 2 av 4")).toBeInTheDocument();
    expect(screen.getByLabelText("Tittel")).toHaveValue("Brio togbane");
    await act(() => router.navigate(-1));
    expect(await screen.findByText("Steg 1 av 4")).toBeInTheDocument();
    expect(screen.getByRole("list", { name: "Valgte bilder (2 av 5)" })).toBeInTheDocument();
    await act(() => router.navigate(1));
    expect(await screen.findByText("Steg 2 av 4")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/create-listing");
  });

  it("a step whose earlier steps are not done shows the first unfinished one", async () => {
    mockApi(profile, imagesRoute());
    const { router } = renderRoutes([{ path: "/create-listing", element: <CreateListingPage /> }], {
      seed: { session: sessionFor("user") },
      path: "/create-listing?steg=4",
    });
    expect(await screen.findByText("Steg 1 av 4")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("a half-filled wizard survives leaving and reloading: the draft is offered and continues with text, photos and step", async () => {
    const fetch = mockApi(profile, imagesRoute());
    const first = renderWizard();
    await toStep(first.user, 2);
    await first.user.type(screen.getByLabelText("Tittel"), "Brio togbane");
    await first.user.type(screen.getByLabelText("Beskrivelse (valgfritt)"), "Med bro");
    await waitFor(() => expect(JSON.parse(localStorage.getItem(`lekebytte:listing-draft:${ME_ID}`) ?? "{}").photos).toHaveLength(2));
    first.unmount();

    const again = renderWizard();
    expect(await screen.findByRole("heading", { name: "Vil du fortsette på utkastet ditt?" })).toBeInTheDocument();
    expect(screen.getByText("Brio togbane")).toBeInTheDocument();
    expect(screen.getByText(/2 bilder/)).toBeInTheDocument();
    await again.user.click(screen.getByRole("button", { name: "Fortsett der du slapp" }));

    expect(await screen.findByText("Steg 2 av 4")).toBeInTheDocument();
    expect(screen.getByLabelText("Tittel")).toHaveValue("Brio togbane");
    expect(screen.getByLabelText("Beskrivelse (valgfritt)")).toHaveValue("Med bro");
    await again.user.click(screen.getByRole("button", { name: "Tilbake til forrige steg" }));
    expect(await screen.findByText("Steg 1 av 4")).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Bilde 1: a.jpg" })).toHaveAttribute("src", "/images/u1/1.jpg");
    expect(screen.getByRole("img", { name: "Bilde 2: b.png" })).toHaveAttribute("src", "/images/u1/2.jpg");
    // Nothing was uploaded twice.
    expect(fetch.mock.calls.filter(([url, init]) => url === "/api/images" && method(init) === "POST")).toHaveLength(2);
  });

  it("discarding the draft deletes its uploaded photos and starts an empty wizard", async () => {
    const fetch = mockApi(profile, imagesRoute());
    const first = renderWizard();
    await toStep(first.user, 2);
    await waitFor(() => expect(localStorage.getItem(`lekebytte:listing-draft:${ME_ID}`)).not.toBeNull());
    first.unmount();

    const again = renderWizard();
    await again.user.click(await screen.findByRole("button", { name: "Forkast utkastet" }));
    expect(await screen.findByText("Steg 1 av 4")).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: /Valgte bilder/ })).not.toBeInTheDocument();
    await waitFor(() =>
      expect(fetch.mock.calls.filter(([, init]) => method(init) === "DELETE").map(([url]) => url)).toEqual([
        "/api/images/u1/1.jpg",
        "/api/images/u1/2.jpg",
      ]),
    );
    expect(localStorage.getItem(`lekebytte:listing-draft:${ME_ID}`)).toBeNull();
  });

  it("publishing clears the draft", async () => {
    mockApi(profile, imagesRoute(), (url, init) =>
      url === "/api/listings" && method(init) === "POST" ? jsonResponse({ id: "new" }, 201) : undefined,
    );
    const { user, router } = renderWizard();
    await toStep(user, 4);
    expect(localStorage.getItem(`lekebytte:listing-draft:${ME_ID}`)).not.toBeNull();
    await user.click(screen.getByRole("button", { name: "Publiser annonse" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(localStorage.getItem(`lekebytte:listing-draft:${ME_ID}`)).toBeNull();
  });
});
