import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AboutPage } from "../../web/routes/static/AboutPage";
import { ContactPage } from "../../web/routes/static/ContactPage";
import { PrivacyPage } from "../../web/routes/static/PrivacyPage";
import { jsonResponse, mockFetch, renderWithProviders, testConfig } from "./utils";

const toast = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock("../../web/lib/toast", () => toast);

beforeEach(() => {
  toast.toastError.mockReset();
  toast.toastSuccess.mockReset();
});

/** Headings never skip a level (h1 → h2 → h3), and there is exactly one h1. */
function expectHeadingsInOrder() {
  const levels = screen.getAllByRole("heading").map((h) => Number(h.tagName.slice(1)));
  expect(levels[0]).toBe(1);
  expect(levels.filter((l) => l === 1)).toHaveLength(1);
  levels.slice(1).forEach((level, i) => expect(level - levels[i]).toBeLessThanOrEqual(1));
}

function expectContactDetails() {
  expect(screen.getByRole("link", { name: testConfig.contactEmail })).toHaveAttribute("href", `mailto:${testConfig.contactEmail}`);
  expect(screen.getByRole("link", { name: testConfig.contactPhone })).toHaveAttribute("href", "tel:+4722123456");
  expect(screen.getByText(testConfig.contactAddress)).toBeInTheDocument();
}

describe("/om-oss", () => {
  it("explains what Lekebytte is, why and how, with contact details", () => {
    renderWithProviders(<AboutPage />, { path: "/om-oss" });
    expect(screen.getByRole("heading", { level: 1, name: "Om oss" })).toBeInTheDocument();
    for (const name of ["Hva er Lekebytte?", "Hvorfor vi finnes", "Slik fungerer det", "Kontakt oss"]) {
      expect(screen.getByRole("heading", { level: 2, name })).toBeInTheDocument();
    }
    for (const name of ["Gjenbruk", "Trygghet", "Lokalt"]) expect(screen.getByRole("heading", { level: 3, name })).toBeInTheDocument();
    expect(screen.getByText(/foreldre kjøper, selger, gir bort og bytter brukte leker og barneutstyr/)).toBeInTheDocument();
    expectHeadingsInOrder();
    expectContactDetails();
    expect(document.title).toBe("Om oss | Lekebytte");
  });
});

describe("/personvern", () => {
  it("has the sections the footer links to and the spec's topics, in heading order", () => {
    renderWithProviders(<PrivacyPage />, { path: "/personvern" });
    expect(screen.getByRole("heading", { level: 1, name: "Personvern" })).toBeInTheDocument();
    expect(document.getElementById("vilkar")).toHaveTextContent("Vilkår for bruk");
    expect(document.getElementById("informasjonskapsler")).toHaveTextContent("Informasjonskapsler");
    for (const name of [
      "Hvilke opplysninger vi lagrer",
      "Hva vi bruker opplysningene til",
      "Informasjonskapsler",
      "Sikkerhet",
      "Dine rettigheter",
      "Tredjeparter",
      "Kontakt",
    ]) {
      expect(screen.getByRole("heading", { level: 2, name })).toBeInTheDocument();
    }
    for (const name of [
      "Nødvendige informasjonskapsler",
      "Analytiske informasjonskapsler",
      "Funksjonelle informasjonskapsler",
      "Informasjonskapsler for markedsføring",
    ]) {
      expect(screen.getByRole("heading", { level: 3, name })).toBeInTheDocument();
    }
    expectHeadingsInOrder();
  });

  it("describes what this product stores, its cookies, the rights and where to use them", () => {
    renderWithProviders(<PrivacyPage />, { path: "/personvern" });
    const text = document.body.textContent ?? "";
    for (const fact of [
      "scrypt",
      "lb_access",
      "lb_refresh",
      "lb_d1",
      "HttpOnly",
      "HTTPS",
      "brukeragent",
      "ett døgn",
      "Cloudflare",
      "Stripe",
      "Vipps",
      "R2",
    ]) {
      expect(text, fact).toContain(fact);
    }
    // Each necessary cookie has its own card: the D1 bookmark cookie (decision 110) too.
    for (const name of ["lb_access", "lb_refresh", "lb_d1"]) expect(screen.getByText(name, { selector: "li > p" })).toBeInTheDocument();
    for (const right of ["innsyn", "retting", "sletting", "dataportabilitet"]) expect(text).toContain(right);
    expect(text).toContain("Last ned mine data");
    expect(text).toContain("Slett konto");
    expect(text).toMatch(/ingen informasjonskapsler for markedsføring/);
    const rights = document.getElementById("rettigheter")!.parentElement!;
    expect(within(rights).getAllByRole("link", { name: "Min profil" })[0]).toHaveAttribute("href", "/profile");
    // The table of contents links to every section.
    const toc = screen.getByRole("navigation", { name: "Innhold" });
    expect(within(toc).getByRole("link", { name: "Vilkår for bruk" })).toHaveAttribute("href", "#vilkar");
    expect(within(toc).getByRole("link", { name: "Informasjonskapsler" })).toHaveAttribute("href", "#informasjonskapsler");
    expectContactDetails();
  });
});

describe("/kontakt", () => {
  function form() {
    return {
      name: screen.getByLabelText("Navn"),
      email: screen.getByLabelText("E-post"),
      subject: screen.getByLabelText("Emne"),
      message: screen.getByLabelText("Melding"),
      submit: screen.getByRole("button", { name: "Send melding" }),
    };
  }

  async function fillIn(f: ReturnType<typeof form>) {
    await userEvent.type(f.name, " Kari Nordmann ");
    await userEvent.type(f.email, "Kari@Eksempel.no");
    await userEvent.type(f.subject, "Spørsmål om bytte");
    await userEvent.type(f.message, "Hvordan foreslår jeg et bytte?");
  }

  it("shows contact details, the spec's claims and a short FAQ", () => {
    renderWithProviders(<ContactPage />, { path: "/kontakt" });
    expect(screen.getByRole("heading", { level: 1, name: "Kontakt oss" })).toBeInTheDocument();
    expectContactDetails();
    expect(screen.getByText(/svarer normalt innen 24 timer på hverdager/)).toBeInTheDocument();
    expect(screen.getByText(/hverdager 09:00-16:00/)).toBeInTheDocument();
    expect(document.querySelectorAll("details summary").length).toBeGreaterThanOrEqual(3);
    expect(form().email).toHaveAttribute("type", "email");
    expectHeadingsInOrder();
  });

  it("requires every field and sends nothing while one is missing", async () => {
    const fetch = mockFetch(() => jsonResponse({ ok: true }, 201));
    renderWithProviders(<ContactPage />, { path: "/kontakt" });
    const f = form();
    await userEvent.click(f.submit);

    // Empty says "Fyll ut …" for every field alike; "gyldig" is only for an address that is wrong.
    expect(await screen.findByText("Fyll ut navn")).toBeInTheDocument();
    expect(screen.getByText("Fyll ut e-post")).toBeInTheDocument();
    expect(screen.getByText("Fyll ut emne")).toBeInTheDocument();
    expect(screen.getByText("Fyll ut melding")).toBeInTheDocument();
    expect(screen.queryByText("Vennligst oppgi en gyldig e-postadresse")).not.toBeInTheDocument();
    expect(f.email).toHaveAccessibleDescription("Fyll ut e-post");
    for (const field of [f.name, f.email, f.subject, f.message]) expect(field).toHaveAttribute("aria-invalid", "true");
    expect(f.name).toHaveFocus();

    await userEvent.type(f.email, "kari@eksempel");
    await userEvent.type(f.name, "Kari");
    await userEvent.type(f.subject, "Hei");
    await userEvent.type(f.message, "Hei!");
    await userEvent.click(f.submit);
    expect(await screen.findByText("Vennligst oppgi en gyldig e-postadresse")).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("sends the message, disables the form while sending, thanks the user and clears the form", async () => {
    let answer!: (r: Response) => void;
    const fetch = mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderWithProviders(<ContactPage />, { path: "/kontakt" });
    const f = form();
    await fillIn(f);
    await userEvent.click(f.submit);

    await waitFor(() => expect(fetch).toHaveBeenCalled());
    for (const field of [f.name, f.email, f.subject, f.message]) expect(field).toBeDisabled();
    expect(screen.getByRole("button", { name: "Sender..." })).toBeDisabled();
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe("/api/contact");
    expect(init?.method).toBe("POST");
    expect(JSON.parse(String(init?.body))).toEqual({
      name: "Kari Nordmann",
      email: "kari@eksempel.no",
      subject: "Spørsmål om bytte",
      message: "Hvordan foreslår jeg et bytte?",
    });

    answer(jsonResponse({ ok: true }, 201));
    await waitFor(() => expect(toast.toastSuccess).toHaveBeenCalledWith("Takk for din henvendelse!", expect.any(String)));
    for (const field of [f.name, f.email, f.subject, f.message]) {
      expect(field).toHaveValue("");
      expect(field).toBeEnabled();
    }
  });

  it("a failure gives 'Noe gikk galt' / 'Kunne ikke sende meldingen. Prøv igjen senere.' and keeps the text", async () => {
    mockFetch(() => jsonResponse({ error: { code: "INTERNAL", message: "Noe gikk galt." } }, 500));
    renderWithProviders(<ContactPage />, { path: "/kontakt" });
    const f = form();
    await fillIn(f);
    await userEvent.click(f.submit);
    await waitFor(() =>
      expect(toast.toastError).toHaveBeenCalledWith("Noe gikk galt", "Kunne ikke sende meldingen. Prøv igjen senere.", {
        error: expect.anything(),
      }),
    );
    expect(f.message).toHaveValue("Hvordan foreslår jeg et bytte?");
    expect(toast.toastSuccess).not.toHaveBeenCalled();
  });

  it("shows the server's field errors from a 400", async () => {
    mockFetch(() =>
      jsonResponse({ error: { code: "VALIDATION", message: "Ugyldig forespørsel", fields: { subject: "Emnet er for langt" } } }, 400),
    );
    renderWithProviders(<ContactPage />, { path: "/kontakt" });
    const f = form();
    await fillIn(f);
    await userEvent.click(f.submit);
    expect(await screen.findByText("Emnet er for langt")).toBeInTheDocument();
    expect(f.subject).toHaveAttribute("aria-invalid", "true");
    expect(toast.toastError).toHaveBeenCalledWith("Noe gikk galt", "Kunne ikke sende meldingen. Prøv igjen senere.", {
      error: expect.anything(),
    });
  });
});
