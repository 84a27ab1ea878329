// The operator's page /admin/drift and the admins' drift mail (docs/decisions/134-operations-page.md):
// what is watched, where each limit lies, and the Norwegian texts both show.
import { AUTO_RELEASE_HOURS, CANCEL_AFTER_DAYS } from "./orders";

export const DRIFT_LIMITS = {
  /**
   * Money still `held` (not handed over) this many days after payment: the 7 days the buyer waits
   * before cancelling, and the 2 days an automatic release takes after a handover (decision 105:
   * "up to 7 + 2 days").
   */
  heldDays: CANCEL_AFTER_DAYS + AUTO_RELEASE_HOURS / 24,
  /** Money `handed_over` whose automatic release is this many hours late (the cron runs hourly). */
  releaseLateHours: 2,
  /** A case (`problem`) a moderator has not decided in this many days. */
  caseDays: 7,
  /** A decided order whose money the provider has not acknowledged this many hours after it was decided (the cron retries hourly). */
  moneyLateHours: 2,
  /** The analytics queue's oldest message is this many minutes old (batches wait 5 s; retries a few minutes). */
  queueOldestMinutes: 30,
} as const;

/** The watched conditions, in the page's order. */
export const DRIFT_CONDITIONS = [
  "held_too_long",
  "money_not_moved",
  "webhooks_refused",
  "queue_backlog",
  "dead_letters",
  "cron_failing",
  "errors",
] as const;
export type DriftCondition = (typeof DRIFT_CONDITIONS)[number];

/**
 * Conditions the drift mail leaves out: a failing cron step already mails the admins itself when
 * it fails twice in a row (worker/cron/outcomes.ts).
 */
export const DRIFT_CONDITIONS_MAILED_ELSEWHERE: readonly DriftCondition[] = ["cron_failing"];

/** Each condition's heading on the page and in the mail, and the page's line when all is well. */
export const DRIFT_TEXTS: Record<DriftCondition, { title: string; none: string }> = {
  held_too_long: { title: "Penger holdt lenger enn reglene tillater", none: "Ingen penger holdes lenger enn reglene tillater." },
  money_not_moved: { title: "Overføringer og tilbakebetalinger som feilet", none: "Alle avgjorte kjøp har fått pengene flyttet." },
  webhooks_refused: { title: "Webhooks avvist siste døgn", none: "Ingen webhooks er avvist siste døgn." },
  queue_backlog: { title: "Analysekøens etterslep", none: "Analysekøen har ikke noe gammelt etterslep." },
  dead_letters: { title: "Analysekøens dødbrevkø", none: "Ingen analysehendelser har havnet i dødbrevkøen siste døgn." },
  cron_failing: { title: "Timejobben", none: "Alle stegene i timejobben lyktes sist de kjørte." },
  errors: { title: "Feil siste time", none: "Ingen uventede feil siste time." },
};

/** Why an order's money counts as held too long, by the state it is in. */
export const HELD_RULE_TEXTS = {
  held: `Ikke overlevert ${DRIFT_LIMITS.heldDays} dager etter betaling`,
  handed_over: "Automatisk utbetaling er forsinket",
  problem: `Saken er ikke avgjort etter ${DRIFT_LIMITS.caseDays} dager`,
} as const;

/** The hourly cron's steps as the page names them (worker/cron/scheduled.ts `CRON_STEPS`). */
export const CRON_STEP_LABELS: Record<string, string> = {
  payments: "Betalinger uten webhook",
  orders: "Holdte penger",
  shipments: "Sendinger",
  "saved-searches": "Lagrede søk",
  sessions: "Økter og koder",
  analytics: "Analysedata",
  sitemap: "Nettstedskart",
  "search-text": "Søkeindeksens ordformer",
  indexnow: "IndexNow",
  drift: "Driftsvarsler",
};

export function driftMailSubject(appName: string, conditions: readonly DriftCondition[]): string {
  return `${appName}: nytt på driftssiden: ${conditions.map((c) => DRIFT_TEXTS[c].title.toLowerCase()).join(", ")}`;
}

export function driftMailText(origin: string, lines: readonly string[]): string {
  return (
    `Dette har dukket opp på driftssiden:\n\n${lines.map((line) => `- ${line}`).join("\n")}\n\n` +
    `Se detaljene på ${origin}/admin/drift\n\n` +
    "Du får ingen ny e-post om det samme før det har vært i orden og så dukker opp igjen."
  );
}
