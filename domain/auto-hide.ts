// Auto-hide (docs/decisions/053-auto-hide.md, 082-auto-hide-one-person-once.md): enough
// independent, established reporters hide a public listing until a moderator decides. Pure: the
// Worker reads the open and the unfounded (dismissed or approved) reports on the listing with their
// reporters' standing and asks `shouldAutoHide`.

/** Open reports created within this many hours count. */
export const AUTO_HIDE_WINDOW_HOURS = 24;
/** Independent reporters needed to hide a listing of a seller without completed deals… */
export const AUTO_HIDE_REPORTERS = 3;
/** …and of a seller with at least one completed deal (a track record is worth more than a few accounts). */
export const AUTO_HIDE_REPORTERS_TRUSTED_SELLER = 5;
/** A reporter counts once their account is this old, or has a completed deal. */
export const AUTO_HIDE_MIN_ACCOUNT_AGE_DAYS = 7;

/** One open report on the listing and what is known about its reporter. */
export interface ReporterEvidence {
  reportId: string;
  /** Null once the reporter's account is gone. */
  reporterId: string | null;
  /** The keyed hash of the reporter's network when filing (IPv4 /24, IPv6 /64); null for older reports. */
  network: string | null;
  /** The reporter's e-mail address as stored. */
  email: string | null;
  emailConfirmedAt: string | null;
  accountCreatedAt: string | null;
  completedDeals: number;
  /** The end of an active suspension, if the reporter has one (is_suspended). */
  suspendedUntil: string | null;
  deleted: boolean;
}

/** Who filed a report a moderator found unfounded on this listing. */
export type UnfoundedReporter = Pick<ReporterEvidence, "reporterId" | "network" | "email">;

const GMAIL_DOMAINS = new Set(["gmail.com", "googlemail.com"]);

/**
 * One mailbox, one key: lower case, no "+tag"; for Gmail (which ignores dots and answers on
 * googlemail.com too) no dots either. Other providers' dots are significant, so they stay.
 */
export function normaliseEmail(email: string): string {
  const s = email.trim().toLowerCase();
  const at = s.lastIndexOf("@");
  if (at <= 0) return s;
  let local = s.slice(0, at);
  let domain = s.slice(at + 1);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    domain = "gmail.com";
    local = local.replace(/\./g, "");
  }
  return `${local}@${domain}`;
}

/** Confirmed, not deleted, not suspended now, and old enough or with a completed deal. */
export function isEstablishedReporter(r: ReporterEvidence, now: string): boolean {
  if (!r.reporterId || r.deleted || !r.emailConfirmedAt || !r.accountCreatedAt) return false;
  if (r.suspendedUntil && r.suspendedUntil > now) return false;
  const oldEnough = Date.parse(r.accountCreatedAt) <= Date.parse(now) - AUTO_HIDE_MIN_ACCOUNT_AGE_DAYS * 86_400_000;
  return oldEnough || r.completedDeals > 0;
}

/** The identities a report carries: its account, its network, its mailbox. */
function identities(r: UnfoundedReporter): string[] {
  const out: string[] = [];
  if (r.reporterId) out.push(`user:${r.reporterId}`);
  if (r.network) out.push(`net:${r.network}`);
  if (r.email) out.push(`mail:${normaliseEmail(r.email)}`);
  return out;
}

/**
 * How many independent people stand behind the open reports: established reporters only, none
 * sharing an account, network or mailbox with a reporter whose report on this listing was found
 * unfounded, and reports linked by a shared account, network or mailbox (directly or through a
 * chain) counting once.
 */
export function countIndependentReporters(open: readonly ReporterEvidence[], unfounded: readonly UnfoundedReporter[], now: string): number {
  const burnt = new Set(unfounded.flatMap(identities));
  const counted = open.filter((r) => isEstablishedReporter(r, now) && !identities(r).some((id) => burnt.has(id)));
  // Union-find over identities: every report joins its identities into one group.
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(x, root);
    return root;
  };
  for (const r of counted) {
    const ids = identities(r);
    for (const id of ids) if (!parent.has(id)) parent.set(id, id);
    for (const id of ids.slice(1)) parent.set(find(id), find(ids[0]));
  }
  return new Set(counted.map((r) => find(identities(r)[0]))).size;
}

/** Independent reporters needed to hide a listing whose seller has `sellerCompletedDeals`. */
export function autoHideThreshold(sellerCompletedDeals: number): number {
  return sellerCompletedDeals > 0 ? AUTO_HIDE_REPORTERS_TRUSTED_SELLER : AUTO_HIDE_REPORTERS;
}

export function shouldAutoHide(input: {
  open: readonly ReporterEvidence[];
  dismissed: readonly UnfoundedReporter[];
  sellerCompletedDeals: number;
  now: string;
}): boolean {
  return countIndependentReporters(input.open, input.dismissed, input.now) >= autoHideThreshold(input.sellerCompletedDeals);
}
