import { setConsent } from "./consent";
import { useConsent } from "./useConsent";

const base = "inline-flex min-h-11 items-center justify-center rounded-xl px-4 font-semibold";
const chosen = "bg-brand-700 text-white hover:bg-brand-800";
const other = "border border-stone-300 bg-white text-brand-800 hover:bg-brand-50";

const STATUS = {
  analytics: "Du har godtatt analyse.",
  necessary: "Du har valgt bare nødvendige. Vi sender ingen statistikk fra nettleseren din.",
  none: "Du har ikke valgt ennå. Til du velger, sender vi ingen statistikk.",
} as const;

/** The privacy page's place to change the analytics choice (the banner's two options). */
export function ConsentSettings() {
  const consent = useConsent();
  return (
    <div className="!mt-4 rounded-xl border border-stone-200 bg-white p-4" data-testid="consent-settings">
      <p className="!mt-0 font-semibold text-stone-900">Ditt valg</p>
      <p className="!mt-1" role="status" aria-live="polite">
        {STATUS[consent ?? "none"]}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          aria-pressed={consent === "necessary"}
          onClick={() => setConsent("necessary")}
          className={`${base} ${consent === "necessary" ? chosen : other}`}
        >
          Bare nødvendige
        </button>
        <button
          type="button"
          aria-pressed={consent === "analytics"}
          onClick={() => setConsent("analytics")}
          className={`${base} ${consent === "analytics" ? chosen : other}`}
        >
          Godta analyse
        </button>
      </div>
    </div>
  );
}
