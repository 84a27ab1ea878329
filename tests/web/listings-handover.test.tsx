// How the toy changes hands on the web (decision 148): the wizard's "Hentes" / "Kan sendes" with the
// parcel sizes, the refusal at the field, the device draft, the edit form, the card's marker and the
// listing page's row.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ListingCard } from "../../web/components/ListingCard";
import { CreateListingPage } from "../../web/routes/create-listing/CreateListingPage";
import { EditListingPage } from "../../web/routes/edit-listing/EditListingPage";
import { renderListing, withListingPage } from "./listingDetailHelpers";
import {
  bodyOf,
  imagesRoute,
  listingPage,
  method,
  mockApi,
  ownListing,
  photo,
  stubBrowserApis,
  type Route,
  wizardProfile,
} from "./listingHelpers";
import { jsonResponse, listing, renderRoutes, renderWithProviders, sessionFor } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

const ME_ID = sessionFor("user").user.id;
beforeEach(() => {
  localStorage.clear();
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
  stubBrowserApis();
  vi.spyOn(console, "warn").mockImplementation(() => {});
});

async function wizardAtLastStep(...extra: Route[]) {
  const fetch = mockApi(wizardProfile, imagesRoute(), ...extra);
  const user = userEvent.setup({ applyAccept: false });
  const view = renderRoutes(
    [
      { path: "/create-listing", element: <CreateListingPage /> },
      { path: "/", element: <h1>Forsiden</h1> },
    ],
    { seed: { session: sessionFor("user") }, path: "/create-listing" },
  );
  const next = () => screen.getByRole("button", { name: "Neste" });
  await user.upload(screen.getByLabelText("Velg bilder"), [photo("a.jpg")]);
  await user.click(next());
  await user.type(await screen.findByLabelText("Tittel"), "Monopol Junior");
  await user.click(next());
  await user.click(await screen.findByRole("radio", { name: "Lego" }));
  await user.click(screen.getByRole("radio", { name: "3-5 år" }));
  await user.click(screen.getByRole("radio", { name: /Meget god/ }));
  await user.click(next());
  await screen.findByText("Steg 4 av 4");
  await user.type(screen.getByLabelText("Pris (kr)"), "120");
  return { user, fetch, ...view };
}

const ways = () => screen.getByRole("group", { name: "Hvordan kan kjøperen få leken?" });

describe("the wizard's last step", () => {
  it("offers «Hentes» (ticked) and «Kan sendes»; the sizes with their measures appear with «Kan sendes»", async () => {
    const { user } = await wizardAtLastStep();
    expect(within(ways()).getByRole("checkbox", { name: "Hentes" })).toBeChecked();
    expect(within(ways()).getByRole("checkbox", { name: "Kan sendes" })).not.toBeChecked();
    expect(screen.queryByRole("group", { name: "Pakkestørrelse" })).not.toBeInTheDocument();

    await user.click(within(ways()).getByRole("checkbox", { name: "Kan sendes" }));
    const sizes = screen.getByRole("group", { name: "Pakkestørrelse" });
    expect(
      within(sizes)
        .getAllByRole("radio")
        .map((r) => r.closest("label")?.textContent),
    ).toEqual([
      "Liten pakke Maks 35 × 25 × 11 cm og 5 kg",
      "Medium pakke Maks 45 × 30 × 15 cm og 5 kg",
      "Stor pakke Maks 58 × 43 × 23 cm og 10 kg",
    ]);
  });

  it("shows the refusal at the field when «Kan sendes» has no size, and publishes nothing", async () => {
    const { user, fetch } = await wizardAtLastStep();
    await user.click(within(ways()).getByRole("checkbox", { name: "Kan sendes" }));
    await user.click(screen.getByRole("button", { name: "Publiser annonse" }));
    const sizes = screen.getByRole("group", { name: "Pakkestørrelse" });
    expect(await within(sizes).findByText("Velg hvor stor pakken er.")).toBeInTheDocument();
    expect(sizes).toHaveAccessibleDescription("Velg hvor stor pakken er.");
    expect(fetch.mock.calls.some(([url]) => url === "/api/listings")).toBe(false);
  });

  it("shows the refusal when no way is ticked", async () => {
    const { user } = await wizardAtLastStep();
    await user.click(within(ways()).getByRole("checkbox", { name: "Hentes" }));
    await user.click(screen.getByRole("button", { name: "Publiser annonse" }));
    expect(await within(ways()).findByText("Velg minst én måte: «Hentes» eller «Kan sendes».")).toBeInTheDocument();
  });

  it("sends both ways and the size", async () => {
    const { user, fetch } = await wizardAtLastStep((url, init) => {
      if (url === "/api/listings" && method(init) === "POST") return jsonResponse({ id: "new" }, 201);
    });
    await user.click(within(ways()).getByRole("checkbox", { name: "Kan sendes" }));
    await user.click(screen.getByRole("radio", { name: /Medium pakke/ }));
    await user.click(screen.getByRole("button", { name: "Publiser annonse" }));
    await waitFor(() => expect(fetch.mock.calls.some(([url]) => url === "/api/listings")).toBe(true));
    const [, init] = fetch.mock.calls.find(([url]) => url === "/api/listings")!;
    expect(bodyOf(init)).toMatchObject({ handover: ["in_person", "shipping"], parcel_size: "medium" });
  });

  it("keeps the ways and the size in the draft on the device, and brings them back", async () => {
    const first = await wizardAtLastStep();
    await first.user.click(within(ways()).getByRole("checkbox", { name: "Kan sendes" }));
    await first.user.click(screen.getByRole("radio", { name: /Medium pakke/ }));
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem(`lekebytte:listing-draft:${ME_ID}`) ?? "{}").values).toMatchObject({
        handover: ["in_person", "shipping"],
        parcel_size: "medium",
      }),
    );
    first.unmount();

    const user = userEvent.setup();
    renderRoutes([{ path: "/create-listing", element: <CreateListingPage /> }], {
      seed: { session: sessionFor("user") },
      path: "/create-listing",
    });
    await user.click(await screen.findByRole("button", { name: "Fortsett der du slapp" }));
    await waitFor(() => expect(screen.getByText(/^Steg \d av 4$/)).toHaveTextContent("Steg 4 av 4"));
    expect(within(ways()).getByRole("checkbox", { name: "Hentes" })).toBeChecked();
    expect(within(ways()).getByRole("checkbox", { name: "Kan sendes" })).toBeChecked();
    expect(screen.getByRole("radio", { name: /Medium pakke/ })).toBeChecked();
  });
});

describe("the edit form", () => {
  it("shows the listing's ways and size, and saves a change to «Stor pakke» only by post", async () => {
    const mine = ownListing({ images: ["u1/a.jpg"], handover: ["in_person", "shipping"], parcel_size: "small" });
    const fetch = mockApi((url, init) => {
      if (url === `/api/me/listings/${mine.id}`) return jsonResponse(mine);
      if (url === `/api/listings/${mine.id}` && method(init) === "PUT") return jsonResponse({ ...mine, id: mine.id });
    });
    const user = userEvent.setup();
    renderRoutes(
      [
        { path: "/edit-listing/:listingId", element: <EditListingPage /> },
        { path: "/profile", element: <h1>Min profil</h1> },
      ],
      { seed: { session: sessionFor("user") }, path: `/edit-listing/${mine.id}` },
    );
    await screen.findByLabelText("Tittel");
    expect(within(ways()).getByRole("checkbox", { name: "Hentes" })).toBeChecked();
    expect(within(ways()).getByRole("checkbox", { name: "Kan sendes" })).toBeChecked();
    expect(screen.getByRole("radio", { name: /Liten pakke/ })).toBeChecked();

    await user.click(within(ways()).getByRole("checkbox", { name: "Hentes" }));
    await user.click(screen.getByRole("radio", { name: /Stor pakke/ }));
    await user.click(screen.getByRole("button", { name: "Oppdater annonse" }));
    await waitFor(() => expect(fetch.mock.calls.some(([, i]) => method(i) === "PUT")).toBe(true));
    const [, init] = fetch.mock.calls.find(([, i]) => method(i) === "PUT")!;
    expect(bodyOf(init)).toMatchObject({ handover: ["shipping"], parcel_size: "large" });
  });
});

describe("the card", () => {
  it("carries a «Kan sendes» marker only when the toy can be sent", () => {
    const { unmount } = renderWithProviders(<ListingCard listing={listing({ handover: ["in_person", "shipping"] })} />);
    expect(screen.getByText("Kan sendes")).toBeInTheDocument();
    unmount();
    renderWithProviders(<ListingCard listing={listing({ handover: ["in_person"] })} />);
    expect(screen.queryByText("Kan sendes")).not.toBeInTheDocument();
  });
});

describe("the listing page", () => {
  withListingPage();

  it.each([
    [["in_person"], null, "Hentes"],
    [["shipping"], "medium", "Kan sendes (Medium pakke)"],
    [["in_person", "shipping"], "large", "Hentes, Kan sendes (Stor pakke)"],
  ] as const)("shows %j with %s as «%s» among the details", async (handover, parcelSize, text) => {
    renderListing(listingPage({ handover: [...handover], parcel_size: parcelSize }));
    const term = await screen.findByText("Levering");
    expect(term.tagName).toBe("DT");
    expect(term.nextElementSibling).toHaveTextContent(new RegExp(`^${text.replace(/[()]/g, "\\$&")}$`));
  });
});
