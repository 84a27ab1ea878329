import { fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { Link } from "../../web/components/Link";

function Where() {
  const location = useLocation();
  return <output aria-label="her">{`${location.pathname}${location.search}`}</output>;
}

function renderAt(path: string, link: React.ReactNode) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="*" element={link} />
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

describe("Link", () => {
  it("is a plain link to the path, so it works before the app's code runs", () => {
    renderAt("/search", <Link to={{ pathname: "/annonse/bamse", search: "?fra=sok" }}>Bamse</Link>);
    expect(screen.getByRole("link", { name: "Bamse" })).toHaveAttribute("href", "/annonse/bamse?fra=sok");
  });

  it("navigates inside the app on an ordinary click", () => {
    renderAt("/search", <Link to="/annonse/bamse">Bamse</Link>);
    const click = fireEvent.click(screen.getByRole("link", { name: "Bamse" }), { button: 0 });
    expect(click).toBe(false);
    expect(screen.getByRole("status", { name: "her" })).toHaveTextContent("/annonse/bamse");
  });

  it("leaves a modified click, a middle click and another target to the browser", () => {
    renderAt(
      "/search",
      <>
        <Link to="/a">Ctrl</Link>
        <Link to="/b" target="_blank">
          Ny fane
        </Link>
      </>,
    );
    expect(fireEvent.click(screen.getByRole("link", { name: "Ctrl" }), { button: 0, ctrlKey: true })).toBe(true);
    expect(fireEvent.click(screen.getByRole("link", { name: "Ctrl" }), { button: 1 })).toBe(true);
    expect(fireEvent.click(screen.getByRole("link", { name: "Ny fane" }), { button: 0 })).toBe(true);
    expect(screen.getByRole("status", { name: "her" })).toHaveTextContent("/search");
  });

  it("runs the caller's onClick first and stays put when it prevents the default", () => {
    const seen: string[] = [];
    renderAt(
      "/search",
      <Link
        to="/annonse/bamse"
        onClick={(event) => {
          seen.push("onClick");
          event.preventDefault();
        }}
      >
        Bamse
      </Link>,
    );
    fireEvent.click(screen.getByRole("link", { name: "Bamse" }), { button: 0 });
    expect(seen).toEqual(["onClick"]);
    expect(screen.getByRole("status", { name: "her" })).toHaveTextContent("/search");
  });

  it("passes the ref and the anchor's attributes through", () => {
    let anchor: HTMLAnchorElement | null = null;
    renderAt(
      "/",
      <Link
        to="/hjelp"
        ref={(node) => {
          anchor = node;
        }}
        className="lenke"
        aria-describedby="hint"
      >
        Hjelp
      </Link>,
    );
    const link = screen.getByRole("link", { name: "Hjelp" });
    expect(anchor).toBe(link);
    expect(link).toHaveClass("lenke");
    expect(link).toHaveAttribute("aria-describedby", "hint");
  });
});
