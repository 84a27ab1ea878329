// The SPA router is built from the route table in domain/routes.ts (which also drives the Worker's
// 404s, robots.txt and the sitemap: tests/worker/route-table.integration.test.ts). Here: the route
// tree has exactly the table's paths, each behind the guard its `access` names, and each renders.
import { screen, waitFor } from "@testing-library/react";
import { Children, isValidElement, type ReactElement, type ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import { PAGE_ROUTE_IDS, PAGE_ROUTES, type PageAccess } from "../../domain/routes";
import { RequireAuth, type SignedOutBehaviour } from "../../web/components/RequireAuth";
import { PAGES, type PageComponent, routes } from "../../web/router";
import routerSource from "../../web/router.tsx?raw";
import { renderRoutes, sessionFor } from "./utils";

vi.mock("../../web/lib/toast", () => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));

const ACCESS_OF_GUARD: Record<SignedOutBehaviour, PageAccess> = {
  redirect: "login-redirect",
  "toast-redirect": "login-toast",
  form: "login-form",
};

interface RouteProps {
  path?: string;
  index?: boolean;
  element?: ReactNode;
  children?: ReactNode;
}

/** Every path in the <Route> tree with the access its enclosing RequireAuth gives it. */
function pathsOf(node: ReactNode, access: PageAccess = "open"): { path: string; access: PageAccess }[] {
  const found: { path: string; access: PageAccess }[] = [];
  Children.forEach(node, (child) => {
    if (!isValidElement(child)) return;
    const props = child.props as RouteProps;
    let inner = access;
    const element = props.element as ReactElement<{ signedOut?: SignedOutBehaviour }> | undefined;
    if (isValidElement(element) && element.type === RequireAuth) inner = ACCESS_OF_GUARD[element.props.signedOut ?? "form"];
    if (props.index) found.push({ path: "/", access: inner });
    if (props.path !== undefined && props.path !== "*") found.push({ path: props.path, access: inner });
    found.push(...pathsOf(props.children, inner));
  });
  return found;
}

describe("the router and the route table", () => {
  it("has exactly the table's routes, each behind the guard of its access", () => {
    const table = PAGE_ROUTE_IDS.map((id) => ({ path: PAGE_ROUTES[id].path, access: PAGE_ROUTES[id].access as PageAccess }));
    const sortByPath = (list: { path: string; access: PageAccess }[]) => [...list].sort((a, b) => a.path.localeCompare(b.path));
    expect(sortByPath(pathsOf(routes))).toEqual(sortByPath(table));
  });

  it.each(PAGE_ROUTE_IDS.filter((id) => id !== "editListingIndex"))("%s renders a page, not the 404 screen", async (id) => {
    // Pages that load data wait for it: their heading or spinner is enough here.
    vi.stubGlobal(
      "fetch",
      vi.fn(() => new Promise<Response>(() => {})),
    );
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const path = PAGE_ROUTES[id].path.replace(/:[A-Za-z]+/g, "abc123");
    renderRoutes(routes, { seed: { session: sessionFor("user"), home: { newest: [], free: [], trade: [] } }, path });
    expect(await screen.findByRole("main")).toBeInTheDocument();
    // A page heading, or a loading status while its data is on the way: whichever comes, at once.
    await waitFor(() => expect(screen.queryByRole("heading", { level: 1 }) ?? screen.queryByRole("status")).toBeInTheDocument());
    expect(screen.queryByText("404 - Siden finnes ikke")).not.toBeInTheDocument();
  });
});

describe("each route's page module", () => {
  // The Worker names a page's files (route-chunks.json, keyed by the module's file name) by the
  // table's `module`, and the app preloads them on a navigation by the page's own: the three agree.
  it("is the table's module, on every route with a page", () => {
    for (const id of PAGE_ROUTE_IDS) {
      const module: string | undefined = (PAGE_ROUTES[id] as { module?: string }).module;
      expect((PAGES[id].type as PageComponent).module, id).toBe(module);
    }
  });

  it("is the file the page is imported from", () => {
    const pages = [...routerSource.matchAll(/page\(\(\) => import\("\.\/routes\/[\w/-]*\/(\w+)"\), "(\w+)"(?:, "(\w+)")?\)/g)];
    expect(pages.length).toBeGreaterThan(30);
    for (const [, file, name, module] of pages) expect(module ?? name, `${name} from ${file}`).toBe(file);
  });
});
