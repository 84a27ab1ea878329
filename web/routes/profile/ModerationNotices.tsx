import { useQuery } from "@tanstack/react-query";
import { ShieldAlert } from "lucide-react";
import { formatDate } from "../../../domain/format";
import { REPORT_TARGET_WORDS } from "../../../domain/moderation";
import { ownModerationQuery } from "../../api/account";

/**
 * A suspension and the warnings moderators gave the user ("a warning that the user sees on
 * their profile"; a suspended user is told why). Nothing when there is nothing to say.
 */
export function ModerationNotices() {
  const { data } = useQuery(ownModerationQuery());
  if (!data || (!data.suspension && data.warnings.length === 0)) return null;
  return (
    <section aria-labelledby="moderation-notices" className="rounded-2xl border border-red-200 bg-red-50 p-4 text-red-950">
      <h2 id="moderation-notices" className="flex items-center gap-2 text-lg font-bold">
        <ShieldAlert aria-hidden="true" className="size-5" />
        {data.suspension
          ? "Kontoen din er utestengt"
          : data.warning_count === 1
            ? "Du har fått en advarsel"
            : `Du har fått ${data.warning_count} advarsler`}
      </h2>
      {data.suspension ? (
        <p className="mt-1">
          Til {formatDate(data.suspension.until)} kan du ikke legge ut annonser, sende meldinger, foreslå bytter eller kjøpe.
          {data.suspension.reason ? ` Årsak: ${data.suspension.reason}` : ""}
        </p>
      ) : null}
      {data.warnings.length > 0 ? (
        <ul className="mt-2 space-y-1 text-sm">
          {data.warnings.map((w) => (
            <li key={w.id}>
              Advarsel {formatDate(w.created_at)}
              {w.target_title ? ` om «${w.target_title}»` : ` om en ${REPORT_TARGET_WORDS[w.target_type]}`}
              {w.reason ? `: ${w.reason}` : ""}
              {w.notes ? ` – ${w.notes}` : ""}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
