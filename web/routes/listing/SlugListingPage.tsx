import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useNavigate, useParams } from "react-router-dom";
import { listingBySlugQuery, listingKeys } from "../../api/listings";
import { PageSpinner } from "../../components/ui/Spinner";
import { takePreloadedListing } from "./preloaded";
import { ListingView } from "./ListingView";

/**
 * /annonse/:slug (docs/product.md "Listing page"). The first render uses the listing the Worker
 * inlined into the page; otherwise it asks the API. Any failure or no match goes to /404.
 */
export function SlugListingPage() {
  const { slug = "" } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Read once per page view, before the query is created (useState runs it only on mount).
  const [loadedAt] = useState(() => Date.now());
  const preloaded = takePreloadedListing(slug);
  const { data, error } = useQuery({
    ...listingBySlugQuery(slug),
    initialData: preloaded,
    initialDataUpdatedAt: preloaded ? loadedAt : undefined,
  });

  useEffect(() => {
    if (error) navigate("/404", { replace: true });
  }, [error, navigate]);

  // A slug that only matched by its id prefix: show the listing's current address.
  useEffect(() => {
    if (!data || data.seo_slug === slug) return;
    queryClient.setQueryData(listingKeys.bySlug(data.seo_slug), data);
    navigate(`/annonse/${encodeURIComponent(data.seo_slug)}`, { replace: true });
  }, [data, slug, navigate, queryClient]);

  if (!data) return <PageSpinner label="Laster annonse..." />;
  return <ListingView listing={data} />;
}
