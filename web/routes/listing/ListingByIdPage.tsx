import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useNavigate, useParams } from "react-router-dom";
import { listingQuery } from "../../api/listings";
import { PageSpinner } from "../../components/ui/Spinner";
import { toastError } from "../../lib/toast";
import { ListingView } from "./ListingView";

/** /listing/:id (old links keep working; cards and shares use /annonse/{slug}). */
export function ListingByIdPage() {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const { data, error } = useQuery(listingQuery(id));

  // docs/product.md "Error messages": "Kunne ikke hente annonse", then the home page.
  useEffect(() => {
    if (!error) return;
    toastError("Feil", "Kunne ikke hente annonse", { id: "listing-load", error });
    navigate("/", { replace: true });
  }, [error, navigate]);

  if (!data) return <PageSpinner label="Laster annonse..." />;
  return <ListingView listing={data} />;
}
