// The carrier's tester page (/bring/tester): every parcel booked in the sandbox, and buttons that
// move one on as Bring would ("Levert inn", "På vei", "Klar til henting", "Levert", "Tapt"). Each
// press sends the Event Cast webhooks of the steps it covers (bring-api.ts advance). Plain HTML
// forms, no scripts, like the sandbox's other pages.
import type { BringSandbox, Parcel, ParcelStatus, ParcelStep } from "./bring-api";
import { PARCEL_STEPS } from "./bring-api";
import { html, redirect, type Reply, type SandboxRequest } from "./http";
import { escapeHtml, page } from "./pages";

export const TESTER_PATH = "/bring/tester";

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

const SERVICE_LABELS: Record<string, string> = {
  "5900": "Pakke i postkassen (5900)",
  "5901": "Pakke til pakkeboks (5901)",
  "5902": "Pakke til hentested (5902)",
};

const SIZE_LABELS: Record<string, string> = { "2528": "Liten", "2529": "Medium", "1377": "Stor", "1378": "Ekstra stor" };

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

/** GET shows the parcels; POST (consignment, step) moves one and comes back to the page. */
export function testerPage(bring: BringSandbox, req: SandboxRequest): Reply {
  if (req.method === "POST") {
    const values = new URLSearchParams(req.body);
    const consignment = values.get("consignment") ?? "";
    const step = values.get("step") as ParcelStep;
    const result = PARCEL_STEPS.includes(step) ? bring.advance(consignment, step) : { error: "Ukjent steg." };
    const note = "error" in result ? result.error : `${STEP_LABELS[step]}: ${result.deliveries.length} hendelse(r) sendt.`;
    return redirect(`${TESTER_PATH}?melding=${encodeURIComponent(note)}#p${encodeURIComponent(consignment)}`);
  }
  const note = req.url.searchParams.get("melding");
  const parcels = [...bring.parcels.values()].reverse();
  const list = parcels.length
    ? parcels.map((p) => parcelCard(bring, p)).join("")
    : `<div class="card"><p class="muted">Ingen pakker ennå. Pakker dukker opp her når Lekebytte bestiller frakt.</p></div>`;
  return html(
    200,
    page(
      "Fraktsandkasse – pakker",
      `<main><h1>Fraktsandkasse: pakker</h1>
<div class="card"><p>Her flytter du en pakke videre slik Posten ville gjort. Hvert steg sender sporingshendelsene (Event Cast) til Lekebytte, signert og med nye forsøk til Lekebytte svarer. «Tapt» sender ingenting: Lekebytte merker selv at det blir stille.</p></div>
${note ? `<p class="notice" role="status">${escapeHtml(note)}</p>` : ""}
${list}</main>`,
      CSS,
    ),
  );
}

function parcelCard(bring: BringSandbox, p: Parcel): string {
  const open = p.status !== "cancelled" && p.status !== "delivered" && p.status !== "lost";
  const route = bring.stepsFor(p);
  const done = p.status === "booked" ? -1 : route.indexOf(p.status as ParcelStep);
  const moves = open ? [...route.filter((_, i) => i > done), ...(p.status === "booked" ? [] : (["lost"] as ParcelStep[]))] : [];
  const to = p.pickupPoint
    ? `${p.pickupPoint.name}, ${p.pickupPoint.address}, ${p.pickupPoint.postalCode} ${p.pickupPoint.city}`
    : `${p.recipient.addressLine}, ${p.recipient.postalCode} ${p.recipient.city}`;
  const events = p.events.length ? p.events.map((e) => escapeHtml(e.code)).join(" → ") : "ingen ennå";
  const buttons = moves
    .map(
      (s) => `<button type="submit" name="step" value="${s}"${s === "lost" ? ' class="lost"' : ""}>${escapeHtml(STEP_LABELS[s])}</button>`,
    )
    .join("");
  return `<section class="card parcel" id="p${escapeHtml(p.consignmentNumber)}" aria-labelledby="h${escapeHtml(p.consignmentNumber)}">
<h2 id="h${escapeHtml(p.consignmentNumber)}">Sending ${escapeHtml(p.consignmentNumber)}</h2>
<p>Sendekode: <span class="code">${escapeHtml(p.labelFreeCode ?? "ingen (etikett)")}</span></p>
<p>${escapeHtml(SERVICE_LABELS[p.service] ?? p.service)}, ${escapeHtml(SIZE_LABELS[p.sizeVas] ?? p.sizeVas)} pakke</p>
<p>Fra ${escapeHtml(p.sender.name)} (${escapeHtml(p.sender.postalCode)} ${escapeHtml(p.sender.city)}) til ${escapeHtml(p.recipient.name)}: ${escapeHtml(to)}</p>
<p>Status: <strong>${escapeHtml(STATUS_LABELS[p.status])}</strong>. Hendelser: ${events}</p>
${
  buttons
    ? `<form method="post" action="${TESTER_PATH}"><input type="hidden" name="consignment" value="${escapeHtml(p.consignmentNumber)}"><div class="moves">${buttons}</div></form>`
    : ""
}
</section>`;
}
