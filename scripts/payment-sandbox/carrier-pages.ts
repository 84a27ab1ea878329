// The carriers' tester page (/frakt/tester; the old /bring/tester leads there): every parcel booked
// in the sandbox with Posten (Bring) or Helthjem, newest first, and buttons that move one on as its
// carrier would ("Levert inn", "På vei", "Klar til henting", "Levert", "Tapt"). Each press sends the
// carrier's tracking webhooks of the steps it covers (carrier-sandbox.ts advanceParcel). Plain HTML
// forms, no scripts, like the sandbox's other pages.
import { CARRIER_LABELS, type Carrier } from "../../domain/carriers";
import { PARCEL_STEPS, type ParcelStatus, type ParcelStep, type SandboxCarrier, type TesterParcel } from "./carrier-sandbox";
import { html, redirect, type Reply, type SandboxRequest } from "./http";
import { escapeHtml, page } from "./pages";

export const TESTER_PATH = "/frakt/tester";
/** Where the page was while Bring was the only carrier: it leads to TESTER_PATH. */
export const OLD_TESTER_PATH = "/bring/tester";

const STEP_LABELS: Record<ParcelStep, string> = {
  handed_in: "Levert inn",
  in_transit: "På vei",
  ready_for_pickup: "Klar til henting",
  delivered: "Levert",
  lost: "Tapt",
};

const STATUS_LABELS: Record<ParcelStatus, string> = {
  booked: "Bestilt, venter på innlevering",
  cancelled: "Avbestilt",
  handed_in: "Levert inn",
  in_transit: "På vei",
  ready_for_pickup: "Klar til henting",
  delivered: "Levert",
  lost: "Tapt (sender ikke flere hendelser)",
};

const CSS = `
main{max-width:48rem}
.parcel{margin-bottom:1rem}
.parcel h2{font-size:1.125rem;margin:0 0 .25rem}
.code{font-family:ui-monospace,monospace;font-size:1.125rem;font-weight:700}
.moves{display:flex;flex-wrap:wrap;gap:.5rem}
.moves button{width:auto;margin-top:.75rem;padding:.6rem .9rem;background:#1d4ed8;color:#fff}
.moves button.lost{background:#b42318}
.notice{background:#e8f1ff;border:1px solid #9db8e8;border-radius:.5rem;padding:.75rem}
`;

/**
 * GET shows every carrier's parcels; POST (carrier, number, step) moves one and comes back to the
 * page. The old path answers with the new one (GET) or keeps the form's POST on its way (307).
 */
export function testerPage(carriers: SandboxCarrier[], req: SandboxRequest): Reply | null {
  const path = req.url.pathname;
  if (path === OLD_TESTER_PATH)
    return req.method === "POST"
      ? { status: 307, headers: { Location: TESTER_PATH, "Cache-Control": "no-store" }, body: "" }
      : redirect(`${TESTER_PATH}${req.url.search}`);
  if (path !== TESTER_PATH) return null;
  if (req.method === "POST") {
    const values = new URLSearchParams(req.body);
    // A form from an old page names only the consignment: Bring's.
    const carrier = carriers.find((c) => c.carrier === (values.get("carrier") ?? "bring"));
    const number = values.get("number") ?? values.get("consignment") ?? "";
    const step = values.get("step") as ParcelStep;
    const result = !carrier
      ? { error: "Ukjent fraktselskap." }
      : PARCEL_STEPS.includes(step)
        ? carrier.advance(number, step)
        : { error: "Ukjent steg." };
    const note = "error" in result ? result.error : `${STEP_LABELS[step]}: ${result.deliveries.length} hendelse(r) sendt.`;
    return redirect(`${TESTER_PATH}?melding=${encodeURIComponent(note)}#p${encodeURIComponent(number)}`);
  }
  const note = req.url.searchParams.get("melding");
  const parcels = carriers.flatMap((c) => c.testerParcels()).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const list = parcels.length
    ? parcels.map(parcelCard).join("")
    : `<div class="card"><p class="muted">Ingen pakker ennå. Pakker dukker opp her når Lekebytte bestiller frakt.</p></div>`;
  const names = carriers.map((c) => CARRIER_LABELS[c.carrier]).join(" eller ");
  return html(
    200,
    page(
      "Fraktsandkasse – pakker",
      `<main><h1>Fraktsandkasse: pakker</h1>
<div class="card"><p>Her flytter du en pakke videre slik ${escapeHtml(names || "fraktselskapet")} ville gjort. Hvert steg sender sporingshendelsene til Lekebytte, signert og med nye forsøk til Lekebytte svarer. «Tapt» sender ingenting: Lekebytte merker selv at det blir stille.</p></div>
${note ? `<p class="notice" role="status">${escapeHtml(note)}</p>` : ""}
${list}</main>`,
      CSS,
    ),
  );
}

function parcelCard(p: TesterParcel): string {
  const id = escapeHtml(p.number);
  const buttons = p.moves
    .map(
      (s) => `<button type="submit" name="step" value="${s}"${s === "lost" ? ' class="lost"' : ""}>${escapeHtml(STEP_LABELS[s])}</button>`,
    )
    .join("");
  const events = p.events.length ? p.events.map(escapeHtml).join(" → ") : "ingen ennå";
  return `<section class="card parcel" id="p${id}" aria-labelledby="h${id}">
<h2 id="h${id}">${escapeHtml(CARRIER_LABELS[p.carrier as Carrier])}: sending ${id}</h2>
<p>Sendekode: <span class="code">${escapeHtml(p.code ?? "ingen (etikett)")}</span></p>
<p>${escapeHtml(p.service)}, ${escapeHtml(p.size)}</p>
<p>Fra ${escapeHtml(p.from)} til ${escapeHtml(p.to)}</p>
<p>Status: <strong>${escapeHtml(STATUS_LABELS[p.status])}</strong>. Hendelser: ${events}</p>
${
  buttons
    ? `<form method="post" action="${TESTER_PATH}"><input type="hidden" name="carrier" value="${escapeHtml(p.carrier)}"><input type="hidden" name="number" value="${id}"><div class="moves">${buttons}</div></form>`
    : ""
}
</section>`;
}
