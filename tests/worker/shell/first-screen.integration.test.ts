// The first screen rendered at the edge (decision 103): /, /search, /annonse/{slug}, /listing/{id}
// and /bruker/{id} arrive with the page's React first screen inside #root (the listing titles a
// visitor came for, before any JavaScript), marked with the instant it was rendered so the browser
// hydrates it; other pages keep an empty #root and render in the browser.
import { describe, expect, it } from "vitest";
import { RENDERED_AT_ATTRIBUTE } from "../../../domain/first-screen";
import { formatPrice } from "../../../domain/format";
import { createListing, createUser } from "../../factories";
import { Client } from "../support/http";
import { rootOf } from "../../factories/page-html";

async function page(path: string): Promise<{ status: number; html: string }> {
  const res = await new Client().get(path, { headers: { Accept: "text/html" } });
  return { status: res.status, html: await res.text() };
}

/** #root's element and its content, as the page arrives. */
function root(html: string): { attributes: string; content: string } {
  const found = rootOf(html);
  if (!found) throw new Error("no #root in the page");
  return found;
}

/** The text a reader sees, tags dropped (and React's text separators with them). */
const text = (html: string) => html.replace(/<[^>]+>|<!--[\s\S]*?-->/g, "").replace(/&amp;/g, "&");

function expectEdgeRendered(html: string): string {
  const { attributes, content } = root(html);
  const renderedAt = attributes.match(new RegExp(`${RENDERED_AT_ATTRIBUTE}="([^"]+)"`))?.[1];
  expect(renderedAt, "#root says when it was rendered").toBeDefined();
  expect(Math.abs(Date.parse(renderedAt!) - Date.now())).toBeLessThan(60_000);
  // The page's own layout: the header's search box and the footer, not a spinner.
  expect(text(content)).toContain("Legg ut en leke nå");
  expect(text(content)).not.toContain("Laster");
  return text(content);
}

describe("the first screen rendered at the edge", () => {
  it("/ shows the newest listings' titles inside #root", async () => {
    const seller = await createUser();
    await createListing({ userId: seller.id, title: "Brio togbane med bro" });
    await createListing({ userId: seller.id, title: "Lego Duplo zoo & dyr" });
    const { status, html } = await page("/");
    expect(status).toBe(200);
    const shown = expectEdgeRendered(html);
    expect(shown).toContain("Brio togbane med bro");
    expect(shown).toContain("Lego Duplo zoo & dyr");
  });

  it("/search?q=lego shows the matching titles inside #root, and not the others", async () => {
    const seller = await createUser();
    await createListing({ userId: seller.id, title: "Lego brannstasjon", category: "lego" });
    await createListing({ userId: seller.id, title: "Dukkevogn i tre", category: "dukker" });
    const { status, html } = await page("/search?q=lego");
    expect(status).toBe(200);
    const shown = expectEdgeRendered(html);
    expect(shown).toContain("Lego brannstasjon");
    expect(shown).not.toContain("Dukkevogn i tre");
  });

  it("a listing by slug and by id shows its title, price and description inside #root", async () => {
    const listing = await createListing({ title: "Barnevogn Emmaljunga", price: 1200, description: "Lite brukt, alltid innendørs." });
    for (const path of [`/annonse/${listing.seoSlug}`, `/listing/${listing.id}`]) {
      const { status, html } = await page(path);
      expect(status, path).toBe(200);
      const shown = expectEdgeRendered(html);
      expect(shown, path).toContain("Barnevogn Emmaljunga");
      expect(shown, path).toContain(formatPrice(1200, false));
      expect(shown, path).toContain("Lite brukt, alltid innendørs.");
    }
  });

  it("a public profile shows the member's name and listings inside #root", async () => {
    const seller = await createUser({ displayName: "Mona Moe" });
    await createListing({ userId: seller.id, title: "Playmobil bondegård" });
    const { status, html } = await page(`/bruker/${seller.id}`);
    expect(status).toBe(200);
    const shown = expectEdgeRendered(html);
    expect(shown).toContain("Mona Moe");
    expect(shown).toContain("Playmobil bondegård");
  });

  it("other pages keep an empty #root: the browser renders them", async () => {
    for (const path of ["/om-oss", "/messages"]) {
      const { status, html } = await page(path);
      expect(status, path).toBe(200);
      expect(root(html)).toEqual({ attributes: " data-test-shell", content: "" });
    }
  });

  it("/auth's #root holds only its form for a browser without JavaScript, which React replaces", async () => {
    const { status, html } = await page("/auth");
    expect(status).toBe(200);
    const { attributes, content } = root(html);
    expect(attributes).toBe(" data-test-shell");
    expect(content).toMatch(/^<noscript>.*<\/noscript>$/s);
    expect(content).toContain('<form method="post" action="/api/auth/signin/form"');
  });
});
