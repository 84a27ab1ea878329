import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { Route } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import { ErrorBoundary } from "../../web/components/ErrorBoundary";
import { RootLayout } from "../../web/components/layout/RootLayout";
import { allowConsoleError } from "./console";
import { renderRoutes } from "./utils";

function Thrower(): never {
  throw new Error("Boom");
}

describe("error boundary", () => {
  it("shows 'Noe gikk galt' with 'Prøv igjen' when a child throws, and retry clears the error", async () => {
    const consoleErrors = allowConsoleError();
    const onRetry = vi.fn();

    function Maybe() {
      const [broken] = useState(() => ({ value: true }));
      if (broken.value) {
        broken.value = false;
        return <Thrower />;
      }
      return <p>Alt i orden</p>;
    }

    render(
      <ErrorBoundary onRetry={onRetry}>
        <Maybe />
      </ErrorBoundary>,
    );

    expect(screen.getByRole("heading", { name: "Noe gikk galt" })).toBeInTheDocument();
    expect(consoleErrors.calls().length).toBeGreaterThan(0);

    await userEvent.click(screen.getByRole("button", { name: "Prøv igjen" }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it("the standalone boundary brings its own main landmark", () => {
    allowConsoleError();
    render(
      <ErrorBoundary standalone>
        <Thrower />
      </ErrorBoundary>,
    );
    expect(screen.getByRole("main")).toContainElement(screen.getByRole("heading", { name: "Noe gikk galt" }));
  });

  it("a page that throws inside the layout shows 'Noe gikk galt' there, with the header kept", async () => {
    allowConsoleError();
    renderRoutes(
      <Route element={<RootLayout />}>
        <Route index element={<Thrower />} />
      </Route>,
      { seed: { session: null, home: { newest: [], free: [], trade: [] } } },
    );
    expect(await screen.findByRole("heading", { name: "Noe gikk galt" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Prøv igjen" })).toBeInTheDocument();
  });
});
