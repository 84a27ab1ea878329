import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { GenericError } from "../../web/routes/fallback/GenericError";
import { LoginRequired } from "../../web/routes/fallback/LoginRequired";
import { NotFound } from "../../web/routes/fallback/NotFound";
import { renderWithProviders } from "./utils";

describe("fallback screens", () => {
  it("NotFound shows the spec texts, links home and logs the path", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    renderWithProviders(<NotFound />, { path: "/finnes/ikke" });

    expect(screen.getByRole("heading", { level: 1, name: "404 - Siden finnes ikke" })).toBeInTheDocument();
    expect(screen.getByText("Beklager, vi fant ikke siden du leter etter. Den kan ha blitt flyttet eller slettet.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Gå til forsiden" })).toHaveAttribute("href", "/");
    expect(warn).toHaveBeenCalledWith(expect.any(String), "/finnes/ikke");
  });

  it("LoginRequired shows the spec texts and a link to /auth", () => {
    renderWithProviders(<LoginRequired />);
    expect(screen.getByRole("heading", { level: 1, name: "Du må logge inn" })).toBeInTheDocument();
    expect(
      screen.getByText("For å se denne siden må du være logget inn. Logg inn eller opprett en ny konto for å fortsette."),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Logg inn" })).toHaveAttribute("href", "/auth");
  });

  it("GenericError offers 'Prøv igjen' with a retry action, otherwise 'Gå til forsiden'", () => {
    const { rerender } = renderWithProviders(<GenericError onRetry={() => {}} />);
    expect(screen.getByRole("heading", { level: 1, name: "Noe gikk galt" })).toBeInTheDocument();
    expect(
      screen.getByText("Vi beklager, men noe gikk galt. Prøv å laste siden på nytt eller gå tilbake til forsiden."),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Prøv igjen" })).toBeInTheDocument();

    rerender(<GenericError />);
    expect(screen.queryByRole("button", { name: "Prøv igjen" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Gå til forsiden" })).toHaveAttribute("href", "/");
  });
});
