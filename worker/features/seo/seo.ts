import { DESCRIPTION_SNIPPET_CHARS } from "../../../domain/limits";
import { formatDate, formatPrice } from "../../../domain/format";
import { ratingSummaryText } from "../../../domain/reviews";
import type { PublicProfile } from "../reviews/reviews";
import { escapeHtml, jsonForScript } from "../../lib/html";
import { titleCasePlace } from "../../../domain/place";
import { categoryLabel, conditionLabel } from "../../../domain/taxonomy";
import { isDealDone } from "../../../domain/listing-lifecycle";
import type { ListingCard, ListingDetail } from "../../../domain/schemas/listing";

/** A snippet of at most `max` characters, cut at a word boundary with an ellipsis. */
export function snippet(text: string, max = DESCRIPTION_SNIPPET_CHARS): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export interface ListingMeta {
  title: string;
  description: string;
  canonical: string;
  image: string | null;
  jsonLd: Record<string, unknown>;
}

/** "{title} - {price or Gratis} | {poststed} | Lekebytte" (docs/product.md "Search engines"). */
export function listingMeta(listing: ListingDetail, origin: string, appName: string): ListingMeta {
  const price = formatPrice(listing.price, listing.is_free);
  const place = listing.place_name ? titleCasePlace(listing.place_name) : listing.postal_code;
  const canonical = `${origin}/annonse/${listing.seo_slug}`;
  const image = listing.images[0] ? `${origin}/images/${listing.images[0]}` : null;
  const description = snippet(
    listing.description ||
      `${listing.title}. ${conditionLabel(listing.condition_rating)}, ${listing.age_range}, ${categoryLabel(listing.category)}.`,
  );
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: listing.title,
    description,
    ...(image ? { image: listing.images.map((k) => `${origin}/images/${k}`) } : {}),
    category: categoryLabel(listing.category),
    url: canonical,
    offers: {
      "@type": "Offer",
      url: canonical,
      price: listing.is_free ? 0 : (listing.price ?? 0),
      priceCurrency: "NOK",
      // A finished deal's page stays (read only, decision 117): no longer to be had.
      availability: isDealDone(listing.status) ? "https://schema.org/SoldOut" : "https://schema.org/InStock",
      itemCondition: "https://schema.org/UsedCondition",
      isFree: listing.is_free,
      areaServed: {
        "@type": "Place",
        name: place,
        address: { "@type": "PostalAddress", postalCode: listing.postal_code, addressCountry: "NO" },
      },
    },
  };
  return { title: `${listing.title} - ${price} | ${place} | ${appName}`, description, canonical, image, jsonLd };
}

export function headTags(meta: ListingMeta, appName: string): string {
  const tags = [
    `<meta name="description" content="${escapeHtml(meta.description)}" />`,
    `<link rel="canonical" href="${escapeHtml(meta.canonical)}" />`,
    `<meta property="og:type" content="product" />`,
    `<meta property="og:site_name" content="${escapeHtml(appName)}" />`,
    `<meta property="og:locale" content="nb_NO" />`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}" />`,
    `<meta property="og:url" content="${escapeHtml(meta.canonical)}" />`,
    meta.image ? `<meta property="og:image" content="${escapeHtml(meta.image)}" />` : "",
    `<meta name="twitter:card" content="${meta.image ? "summary_large_image" : "summary"}" />`,
    `<meta name="twitter:title" content="${escapeHtml(meta.title)}" />`,
    `<meta name="twitter:description" content="${escapeHtml(meta.description)}" />`,
    meta.image ? `<meta name="twitter:image" content="${escapeHtml(meta.image)}" />` : "",
    `<script type="application/ld+json">${jsonForScript(meta.jsonLd)}</script>`,
  ];
  return tags.filter(Boolean).join("\n    ");
}

/** Server-rendered content inside #root for crawlers and readers without JavaScript; React replaces it. */
export function listingBody(listing: ListingDetail): string {
  const img = listing.images[0]
    ? `<img src="/images/${escapeHtml(listing.images[0])}" alt="${escapeHtml(listing.title)}" width="800" height="600" style="max-width:100%;height:auto" />`
    : "";
  return `<main style="max-width:40rem;margin:0 auto;padding:1rem;font-family:system-ui,sans-serif"><article><h1>${escapeHtml(listing.title)}</h1>${img}<p><strong>${escapeHtml(
    formatPrice(listing.price, listing.is_free),
  )}</strong> · ${escapeHtml(conditionLabel(listing.condition_rating))} · ${escapeHtml(listing.age_range)} · ${escapeHtml(categoryLabel(listing.category))}</p>${
    listing.description ? `<p>${escapeHtml(listing.description)}</p>` : ""
  }<p><a href="/">Lekebytte</a></p></article></main>`;
}

export type PreloadedListing = ListingDetail & { more_from_seller: ListingCard[] };

/** The public profile's edge page (/bruker/{id}, decision 071): title, description and Open Graph tags. */
export function profileMeta(
  profile: PublicProfile,
  origin: string,
  appName: string,
): { title: string; description: string; canonical: string } {
  const parts = [
    `${profile.display_name} har vært medlem av ${appName} siden ${formatDate(profile.member_since)}.`,
    `${ratingSummaryText(profile.rating)}.`,
  ];
  parts.push(profile.listing_count === 1 ? "1 aktiv annonse." : `${profile.listing_count} aktive annonser.`);
  return { title: `${profile.display_name} | ${appName}`, description: parts.join(" "), canonical: `${origin}/bruker/${profile.id}` };
}

export function profileHeadTags(meta: { title: string; description: string; canonical: string }, appName: string): string {
  return [
    `<meta name="description" content="${escapeHtml(meta.description)}" />`,
    // Private people's pages are for Lekebytte's users and shared links, not for search engines.
    `<meta name="robots" content="noindex" />`,
    `<link rel="canonical" href="${escapeHtml(meta.canonical)}" />`,
    `<meta property="og:type" content="profile" />`,
    `<meta property="og:site_name" content="${escapeHtml(appName)}" />`,
    `<meta property="og:locale" content="nb_NO" />`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}" />`,
    `<meta property="og:url" content="${escapeHtml(meta.canonical)}" />`,
    `<meta name="twitter:card" content="summary" />`,
    `<meta name="twitter:title" content="${escapeHtml(meta.title)}" />`,
    `<meta name="twitter:description" content="${escapeHtml(meta.description)}" />`,
  ].join("\n    ");
}

/** The profile inside #root for readers without JavaScript; React replaces it. */
export function profileBody(profile: PublicProfile): string {
  const reviews = profile.reviews
    .map(
      (r) =>
        `<li><strong>${r.rating} av 5</strong> – ${escapeHtml(r.reviewer.display_name)}${r.text ? `: ${escapeHtml(r.text)}` : ""}</li>`,
    )
    .join("");
  return `<main style="max-width:40rem;margin:0 auto;padding:1rem;font-family:system-ui,sans-serif"><h1>${escapeHtml(profile.display_name)}</h1><p>Medlem siden ${escapeHtml(
    formatDate(profile.member_since),
  )}</p><p>${escapeHtml(ratingSummaryText(profile.rating))}</p>${reviews ? `<ul>${reviews}</ul>` : ""}<p><a href="/">Lekebytte</a></p></main>`;
}
