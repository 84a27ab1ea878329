import { useQuery } from "@tanstack/react-query";
import { PackagePlus } from "lucide-react";
import { useEffect } from "react";
import { Link } from "../../components/Link";
import { HOME_NEWEST_COUNT } from "../../../domain/limits";
import { homeQuery } from "../../api/listings";
import { buttonClasses } from "../../components/ui/Button";
import { Button } from "../../components/ui/Button";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useSession } from "../../lib/useSession";
import { CategoryGrid } from "./CategoryGrid";
import { ListingSection } from "./ListingSection";
import { NewsletterBlock } from "./NewsletterBlock";
import { ErrorCode } from "../../components/ErrorCode";

export function HomePage() {
  useDocumentTitle();
  const session = useSession();
  const home = useQuery(homeQuery());
  // While the session loads, /create-listing itself sends a visitor on to /auth.
  const createTo = session.status === "signed-out" ? "/auth" : "/create-listing";

  // docs/product.md "Error messages": home listing fetch failures are logged; the page says so instead of claiming
  // the marketplace is empty, and offers a retry.
  useEffect(() => {
    if (home.error) console.error("Home listings fetch failed", home.error);
  }, [home.error]);

  const newest = home.data?.newest ?? [];
  const free = home.data?.free ?? [];
  const trade = home.data?.trade ?? [];

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-4 sm:space-y-10 sm:py-8">
      <div>
        <h1 className="text-xl font-extrabold tracking-tight text-stone-900 sm:text-3xl">Kjøp, selg, gi bort og bytt brukte leker</h1>
        <p className="mt-2 hidden text-stone-700 sm:block">Gi lekene et nytt hjem – hos en familie i nærheten.</p>
      </div>

      <CategoryGrid />

      {home.isError && !home.data ? (
        <section
          aria-labelledby="home-error-heading"
          className="rounded-2xl border border-dashed border-stone-300 bg-white p-6 text-center"
        >
          <h2 id="home-error-heading" className="text-lg font-semibold text-stone-900">
            Kunne ikke hente annonser
          </h2>
          <p className="mt-1 text-stone-700">Noe gikk galt da vi hentet annonsene. Sjekk nettforbindelsen og prøv igjen.</p>
          <ErrorCode error={home.error} className="mt-2" />
          <Button variant="secondary" className="mt-4" disabled={home.isFetching} onClick={() => void home.refetch()}>
            {home.isFetching ? "Prøver igjen..." : "Prøv igjen"}
          </Button>
        </section>
      ) : (
        <>
          <ListingSection
            title="Nyeste annonser"
            listings={newest}
            seeAllTo="/search"
            priorityCount={2}
            loading={home.isPending ? { count: HOME_NEWEST_COUNT, label: "Laster annonser..." } : undefined}
            empty={
              <p className="mt-3 rounded-2xl border border-dashed border-stone-300 bg-white p-6 text-center text-stone-700">
                Ingen annonser ennå. Vær den første til å legge ut en leke!
              </p>
            }
          />
          {free.length > 0 ? <ListingSection title="Gi bort" listings={free} seeAllTo="/search?free=true" columns={4} /> : null}
          {trade.length > 0 ? <ListingSection title="Åpen for bytte" listings={trade} seeAllTo="/search?trade=true" columns={4} /> : null}
        </>
      )}

      <NewsletterBlock variant="home" />

      <section aria-labelledby="cta-heading" className="rounded-2xl bg-accent-200 p-6 text-center sm:p-10">
        <h2 id="cta-heading" className="text-xl font-bold text-stone-900 sm:text-2xl">
          Har du leker som ikke blir brukt lenger?
        </h2>
        <p className="mx-auto mt-2 max-w-prose text-stone-800">
          Legg dem ut på få minutter – selg dem, gi dem bort eller bytt dem mot noe nytt.
        </p>
        <Link to={createTo} className={buttonClasses("primary", "lg", "mt-5")}>
          <PackagePlus aria-hidden="true" className="size-5" />
          Legg ut leke nå
        </Link>
      </section>
    </div>
  );
}
