import { useQuery } from "@tanstack/react-query";
import { PackagePlus } from "lucide-react";
import { useEffect } from "react";
import { Link } from "react-router-dom";
import { homeQuery } from "../../api/queries";
import { buttonClasses } from "../../components/ui/Button";
import { Spinner } from "../../components/ui/Spinner";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useSession } from "../../lib/useSession";
import { CategoryGrid } from "./CategoryGrid";
import { ListingSection } from "./ListingSection";
import { NewsletterBlock } from "./NewsletterBlock";

export function HomePage() {
  useDocumentTitle();
  const session = useSession();
  const home = useQuery(homeQuery());
  // While the session loads, /create-listing itself sends a visitor on to /auth.
  const createTo = session.status === "signed-out" ? "/auth" : "/create-listing";

  // Spec part 1 §8: home listing fetch failures are only logged; the page shows the empty state.
  useEffect(() => {
    if (home.error) console.error("Home listings fetch failed", home.error);
  }, [home.error]);

  const newest = home.data?.newest ?? [];
  const free = home.data?.free ?? [];
  const trade = home.data?.trade ?? [];

  return (
    <div className="mx-auto max-w-6xl space-y-10 px-4 py-6 sm:py-8">
      <div>
        <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl">Kjøp, selg, gi bort og bytt brukte leker</h1>
        <p className="mt-2 text-stone-700">Gi lekene et nytt hjem – hos en familie i nærheten.</p>
      </div>

      <CategoryGrid />

      {home.isPending ? (
        <section aria-label="Annonser">
          <Spinner label="Laster annonser..." className="py-12" />
        </section>
      ) : (
        <>
          <ListingSection
            title="Nyeste annonser"
            listings={newest}
            seeAllTo="/search"
            empty={
              <p className="mt-3 rounded-2xl border border-dashed border-stone-300 bg-white p-6 text-center text-stone-700">
                Ingen annonser ennå. Vær den første til å legge ut en leke!
              </p>
            }
          />
          {free.length > 0 ? <ListingSection title="Gi bort" listings={free} seeAllTo="/search?free=true" columns={4} /> : null}
          {trade.length > 0 ? (
            <ListingSection title="Åpen for bytte" listings={trade} seeAllTo="/search?trade=true" columns={4} />
          ) : null}
        </>
      )}

      <NewsletterBlock variant="home" />

      <section aria-labelledby="cta-heading" className="rounded-2xl bg-accent-200 p-6 text-center sm:p-10">
        <h2 id="cta-heading" className="text-xl font-bold text-stone-900 sm:text-2xl">
          Har du leker som ikke blir brukt lenger?
        </h2>
        <p className="mx-auto mt-2 max-w-prose text-stone-800">Legg dem ut på få minutter – selg dem, gi dem bort eller bytt dem mot noe nytt.</p>
        <Link to={createTo} className={buttonClasses("primary", "lg", "mt-5")}>
          <PackagePlus aria-hidden="true" className="size-5" />
          Legg ut leke nå
        </Link>
      </section>
    </div>
  );
}
