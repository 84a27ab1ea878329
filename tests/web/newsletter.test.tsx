import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { NewsletterBlock } from "../../web/routes/home/NewsletterBlock";
import { jsonResponse, mockFetch, renderWithProviders } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

function setup() {
  renderWithProviders(<NewsletterBlock variant="home" />, { path: "/" });
  return {
    email: screen.getByLabelText("E-post"),
    name: screen.getByLabelText("Navn (valgfritt)"),
    submit: screen.getByRole("button", { name: "Meld meg på" }),
  };
}

describe("NewsletterBlock", () => {
  it("an empty e-mail gives 'Manglende e-post' and sends nothing", async () => {
    const fetch = mockFetch(() => jsonResponse({}, 201));
    const { submit, email } = setup();
    await userEvent.click(submit);

    await waitFor(() => expect(toast.toastError).toHaveBeenCalledWith("Manglende e-post"));
    expect(screen.getByText("Manglende e-post")).toBeInTheDocument();
    expect(email).toHaveAttribute("aria-invalid", "true");
    expect(fetch).not.toHaveBeenCalled();
  });

  it("an invalid e-mail gives 'Ugyldig e-post' / 'Vennligst oppgi en gyldig e-postadresse'", async () => {
    const fetch = mockFetch(() => jsonResponse({}, 201));
    const { submit, email } = setup();
    await userEvent.type(email, "kari@eksempel");
    await userEvent.click(submit);

    await waitFor(() => expect(toast.toastError).toHaveBeenCalledWith("Ugyldig e-post", "Vennligst oppgi en gyldig e-postadresse"));
    expect(screen.getByText("Vennligst oppgi en gyldig e-postadresse")).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("subscribes with signup_page and variant, thanks the user and clears the fields", async () => {
    const fetch = mockFetch(() => jsonResponse({ ok: true }, 201));
    const { submit, email, name } = setup();
    await userEvent.type(email, "  Kari@Eksempel.no ");
    await userEvent.type(name, "Kari");
    await userEvent.click(submit);

    await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Takk for påmeldingen!", "Du er nå påmeldt vårt nyhetsbrev"));
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe("/api/newsletter");
    expect(init?.method).toBe("POST");
    expect(new Headers(init?.headers).get("Content-Type")).toBe("application/json");
    expect(JSON.parse(String(init?.body))).toEqual({ email: "kari@eksempel.no", name: "Kari", signup_page: "/", variant: "home" });
    expect(email).toHaveValue("");
    expect(name).toHaveValue("");
  });

  it("409 gives 'Allerede påmeldt'", async () => {
    mockFetch(() => jsonResponse({ error: { code: "CONFLICT", message: "Allerede påmeldt" } }, 409));
    const { submit, email } = setup();
    await userEvent.type(email, "kari@eksempel.no");
    await userEvent.click(submit);
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Allerede påmeldt", "Denne e-postadressen er allerede registrert for nyhetsbrevet"),
    );
    expect(email).toHaveValue("kari@eksempel.no");
  });

  it("other failures give 'Noe gikk galt'", async () => {
    mockFetch(() => jsonResponse({ error: { code: "RATE_LIMITED", message: "For mange forsøk." } }, 429));
    const { submit, email } = setup();
    await userEvent.type(email, "kari@eksempel.no");
    await userEvent.click(submit);
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Noe gikk galt", "Kunne ikke melde deg på nyhetsbrevet. Prøv igjen senere.", {
        error: expect.anything(),
      }),
    );
  });
});
