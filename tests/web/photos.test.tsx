// Photos at the size of the screen (docs/decisions/123-photo-variants.md): cards and the listing
// page name the Worker's smaller copies with srcset and sizes, never the uploaded photo; a card on a
// portrait phone takes the 360 px copy even at 3×; a photo that fails shows the stock picture and
// no copies; list thumbnails take the card's copy.
import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ListingCard } from "../../web/components/ListingCard";
import { firstImageUrl } from "../../web/lib/images";
import { ImageCarousel } from "../../web/routes/listing/ImageCarousel";
import { listing, renderWithProviders } from "./utils";

/** The copy a browser takes from a w-descriptor srcset for a layout width and a screen density (the spec's rule). */
function chosen(srcset: string, layoutWidth: number, density: number): string {
  const candidates = srcset.split(", ").map((c) => {
    const [url, w] = c.split(" ");
    return { url, density: Number.parseInt(w, 10) / layoutWidth };
  });
  return (candidates.find((c) => c.density >= density) ?? candidates[candidates.length - 1]).url;
}

/** The width `sizes` gives for a viewport, taking the first media condition that holds. */
function sizeFor(sizes: string, viewport: number): number {
  for (const part of sizes.split(", ")) {
    const match = /^\((max|min)-width: (\d+)px\) (.+)$/.exec(part);
    const length = match ? match[3] : part;
    if (match && (match[1] === "max" ? viewport > Number(match[2]) : viewport < Number(match[2]))) continue;
    return length.endsWith("vw") ? (viewport * Number.parseFloat(length)) / 100 : Number.parseFloat(length);
  }
  throw new Error(`no size in ${sizes}`);
}

describe("a listing card's photo", () => {
  it("names the card's copies (360 and 800 px WebP) with the grid's sizes, and the 360 px one as src", () => {
    renderWithProviders(<ListingCard listing={listing({ title: "Dukkevogn", images: ["u1/bilde 1.jpg"] })} />);
    const img = screen.getByRole("img", { name: "Dukkevogn" });
    expect(img).toHaveAttribute("srcset", "/images/u1/bilde%201.jpg/360.webp 360w, /images/u1/bilde%201.jpg/800.webp 800w");
    expect(img).toHaveAttribute("sizes", "(max-width: 479px) 120px, (min-width: 1024px) 300px, (min-width: 768px) 33vw, 50vw");
    expect(img).toHaveAttribute("src", "/images/u1/bilde%201.jpg/360.webp");
  });

  it("is the 360 px copy on a 390 px phone at 2× and 3×, and 800 px on a large screen at 2×", () => {
    renderWithProviders(<ListingCard listing={listing({ title: "Sparkesykkel", images: ["u1/s.jpg"] })} />);
    const img = screen.getByRole("img", { name: "Sparkesykkel" });
    const pick = (viewport: number, density: number) =>
      chosen(img.getAttribute("srcset") ?? "", sizeFor(img.getAttribute("sizes") ?? "", viewport), density);
    expect(pick(390, 3)).toBe("/images/u1/s.jpg/360.webp");
    expect(pick(390, 2)).toBe("/images/u1/s.jpg/360.webp");
    expect(pick(430, 3)).toBe("/images/u1/s.jpg/360.webp");
    expect(pick(1280, 2)).toBe("/images/u1/s.jpg/800.webp");
    expect(pick(1280, 1)).toBe("/images/u1/s.jpg/360.webp");
  });

  it("shows the stock picture without any copy once the photo fails", () => {
    renderWithProviders(<ListingCard listing={listing({ title: "Bamse", images: ["u1/b.jpg"] })} />);
    fireEvent.error(screen.getByRole("img", { name: "Bamse" }));
    const img = document.querySelector("img");
    expect(img).toHaveAttribute("src", "/placeholder-toy.svg");
    expect(img).not.toHaveAttribute("srcset");
  });
});

describe("the listing page's photos", () => {
  it("name the screen's copies (360, 800, 1200 px) with the page's sizes; the first loads at once", () => {
    renderWithProviders(<ImageCarousel images={["u2/a.jpg", "u2/b.jpg"]} title="Brio" />);
    const first = screen.getByRole("img", { name: "Brio, bilde 1 av 2" });
    expect(first).toHaveAttribute(
      "srcset",
      "/images/u2/a.jpg/360.webp 360w, /images/u2/a.jpg/800.webp 800w, /images/u2/a.jpg/1200.webp 1200w",
    );
    expect(first).toHaveAttribute("sizes", "(min-width: 1024px) 560px, (min-width: 768px) 54vw, 100vw");
    expect(first).toHaveAttribute("src", "/images/u2/a.jpg/800.webp");
    expect(first).toHaveAttribute("loading", "eager");
    const pick = (viewport: number, density: number) =>
      chosen(first.getAttribute("srcset") ?? "", sizeFor(first.getAttribute("sizes") ?? "", viewport), density);
    // A 390 px phone: 800 px at 2×, 1200 px at 3×; a large screen at 2×: 1200 px for its 560 px.
    expect([pick(390, 2), pick(390, 3), pick(1280, 2)]).toEqual([
      "/images/u2/a.jpg/800.webp",
      "/images/u2/a.jpg/1200.webp",
      "/images/u2/a.jpg/1200.webp",
    ]);
    expect(screen.getByRole("img", { name: "Brio, bilde 2 av 2", hidden: true })).toHaveAttribute("loading", "lazy");
  });
});

describe("thumbnails in lists", () => {
  it("take the card's 360 px copy of the first photo", () => {
    expect(firstImageUrl(["", "u3/x.png"])).toBe("/images/u3/x.png/360.webp");
    expect(firstImageUrl([])).toBeNull();
  });
});
