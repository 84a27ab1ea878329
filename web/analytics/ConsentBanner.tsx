import { useId } from "react";
import { Link } from "react-router-dom";
import { setConsent } from "./consent";

const button =
  "inline-flex min-h-11 flex-1 items-center justify-center rounded-xl px-3 font-semibold whitespace-nowrap sm:flex-none sm:px-4";

/**
 * The analytics choice (privacy page "Informasjonskapsler"): a fixed overlay at the bottom, so it
 * never moves the page's content (no layout shift), and a landmark screen readers can find. It does
 * not take focus; the page stays usable behind it.
 */
export function ConsentBanner() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="fixed inset-x-0 bottom-0 z-50 p-3 sm:p-4" data-testid="consent-banner">
      <div className="mx-auto max-w-3xl rounded-2xl border border-stone-300 bg-white p-4 text-stone-800 shadow-xl">
        <h2 id={headingId} className="font-bold text-stone-900">
          Hjelp oss å gjøre Lekebytte bedre
        </h2>
        <p className="mt-1 text-sm">
          Godtar du analyse, teller vi sidevisninger og søk uten å koble dem til deg, og selgere ser hvor mange som har sett annonsene
          deres. Du kan ombestemme deg på{" "}
          <Link to="/personvern#informasjonskapsler" className="font-medium text-brand-800 underline underline-offset-2">
            personvernsiden
          </Link>
          .
        </p>
        <div className="mt-3 flex flex-wrap gap-2">
          <button
            type="button"
            onClick={() => setConsent("necessary")}
            className={`${button} border border-stone-300 bg-white text-brand-800 hover:bg-brand-50`}
          >
            Bare nødvendige
          </button>
          <button type="button" onClick={() => setConsent("analytics")} className={`${button} bg-brand-700 text-white hover:bg-brand-800`}>
            Godta analyse
          </button>
        </div>
      </div>
    </section>
  );
}
