// The sandbox's hosted pages: Checkout's card form, Connect onboarding, the Express dashboard, and
// the Vipps landing page and "app". Plain HTML (no scripts), Norwegian like the real pages with
// locale nb, and a banner that says nothing here moves real money.

export interface CheckoutForm {
  email: string;
  card: string;
  expiry: string;
  cvc: string;
  name: string;
}

interface CheckoutView {
  id: string;
  title: string;
  amount: string;
  cancelUrl: string | null;
}

interface VippsView {
  token: string;
  amount: string;
  description: string;
  merchant: string;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);
}

const BASE_CSS = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f6f7f9;line-height:1.45}
.banner{background:#fff4cc;color:#3d2f00;text-align:center;font-size:.875rem;padding:.5rem 1rem;border-bottom:1px solid #e6d48a}
main{max-width:28rem;margin:0 auto;padding:1.25rem 1rem 2rem}
h1{font-size:1.375rem;margin:.25rem 0 1rem}
.card{background:#fff;border:1px solid #dcdfe4;border-radius:.75rem;padding:1.25rem;box-shadow:0 1px 2px rgba(0,0,0,.05)}
label{display:block;font-weight:600;font-size:.9375rem;margin:.875rem 0 .25rem}
input{width:100%;font:inherit;font-size:1rem;padding:.625rem .75rem;border:1px solid #6b7280;border-radius:.5rem;background:#fff;color:#1a1a1a}
input:focus-visible{outline:3px solid #1d4ed8;outline-offset:1px}
input[aria-invalid=true]{border-color:#b42318}
.error{color:#b42318;font-size:.875rem;margin:.25rem 0 0;font-weight:600}
.hint{color:#4b5563;font-size:.875rem;margin:.5rem 0 0}
.row{display:flex;gap:.75rem}.row>div{flex:1}
button{font:inherit;font-weight:700;font-size:1rem;border:0;border-radius:.5rem;padding:.8rem 1rem;width:100%;cursor:pointer;margin-top:1.25rem}
button:focus-visible,a:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
a{color:#1d4ed8}
.amount{font-size:2rem;font-weight:800;margin:.25rem 0}
.muted{color:#4b5563}
.secondary{background:#fff;color:#1a1a1a;border:1px solid #6b7280}
table{width:100%;border-collapse:collapse;font-size:.9375rem}th,td{text-align:left;padding:.5rem .25rem;border-bottom:1px solid #e5e7eb}
`;

export function page(title: string, body: string, extraCss = ""): string {
  return `<!doctype html>
<html lang="nb">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${BASE_CSS}${extraCss}</style>
</head>
<body>
<div class="banner" role="note">Betalingssandkasse for lokal utvikling – ingen ekte penger trekkes.</div>
${body}
</body>
</html>`;
}

export function field(name: string, label: string, value: string, error: string | undefined, attrs: string): string {
  const id = `f-${name}`;
  const described = error ? ` aria-invalid="true" aria-describedby="${id}-error"` : "";
  return `<div><label for="${id}">${escapeHtml(label)}</label><input id="${id}" name="${name}" value="${escapeHtml(value)}" ${attrs}${described}>${
    error ? `<p class="error" id="${id}-error">${escapeHtml(error)}</p>` : ""
  }</div>`;
}

const STRIPE_CSS = `
.merchant{display:flex;align-items:center;gap:.5rem;font-weight:700}
.logo{display:inline-flex;width:2rem;height:2rem;border-radius:.5rem;background:#4338ca;color:#fff;align-items:center;justify-content:center;font-weight:800}
.pay{background:#4338ca;color:#fff}
.powered{text-align:center;font-size:.8125rem;color:#4b5563;margin-top:1rem}
`;

export function checkoutPage(view: CheckoutView, values: CheckoutForm, errors: Record<string, string> = {}): string {
  const cancel = view.cancelUrl ? `<p><a href="${escapeHtml(view.cancelUrl)}">Avbryt og gå tilbake til Lekebytte</a></p>` : "";
  return page(
    `Betal ${view.amount} – Lekebytte`,
    `<main>
<p class="merchant"><span class="logo" aria-hidden="true">L</span>Lekebytte</p>
<h1>${escapeHtml(view.title)}</h1>
<p class="muted">Å betale</p>
<p class="amount">${escapeHtml(view.amount)}</p>
<form class="card" method="post" action="/c/pay/${escapeHtml(view.id)}" novalidate>
<h2 style="font-size:1.125rem;margin:0">Betal med kort</h2>
${field("email", "E-post", values.email, errors.email, 'type="email" autocomplete="email" required')}
${field("card", "Kortnummer", values.card, errors.card, 'inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" required')}
<div class="row">
${field("expiry", "Utløpsdato", values.expiry, errors.expiry, 'inputmode="numeric" autocomplete="cc-exp" placeholder="MM / ÅÅ" required')}
${field("cvc", "CVC", values.cvc, errors.cvc, 'inputmode="numeric" autocomplete="cc-csc" placeholder="123" required')}
</div>
${field("name", "Navn på kortet", values.name, errors.name, 'autocomplete="cc-name"')}
<p class="hint">Testkort: 4242 4242 4242 4242 med en fremtidig dato og en hvilken som helst CVC. 4000 0000 0000 0002 blir avvist.</p>
<button class="pay" type="submit">Betal ${escapeHtml(view.amount)}</button>
</form>
${cancel}
<p class="powered">Drevet av Stripe (sandkasse)</p>
</main>`,
    STRIPE_CSS,
  );
}

export function onboardingPage(
  linkId: string,
  email: string,
  values: { firstName: string; lastName: string; accountNumber: string },
  errors: Record<string, string> = {},
): string {
  return page(
    "Kom i gang med utbetalinger – Stripe",
    `<main>
<p class="merchant"><span class="logo" aria-hidden="true">S</span>Stripe Connect</p>
<h1>Lekebytte samarbeider med Stripe for utbetalinger</h1>
<p class="muted">Fyll inn opplysningene under, så kan du ta imot betaling for annonsene dine.${email ? ` Kontoen gjelder ${escapeHtml(email)}.` : ""}</p>
<form class="card" method="post" action="/connect/onboarding/${escapeHtml(linkId)}" novalidate>
${field("first_name", "Fornavn", values.firstName, errors.first_name, 'autocomplete="given-name" required')}
${field("last_name", "Etternavn", values.lastName, errors.last_name, 'autocomplete="family-name" required')}
${field("account_number", "Kontonummer for utbetaling", values.accountNumber, errors.account_number, 'inputmode="numeric" placeholder="1234 56 78903" required')}
<p class="hint">Testverdier holder: et hvilket som helst navn og 11 siffer.</p>
<button class="pay" type="submit">Send inn og fortsett</button>
</form>
</main>`,
    STRIPE_CSS,
  );
}

export function dashboardPage(
  name: string,
  payoutsEnabled: boolean,
  payments: Array<{ title: string; amount: string; refunded: boolean; created: Date }>,
): string {
  const date = new Intl.DateTimeFormat("nb-NO", { dateStyle: "medium", timeZone: "Europe/Oslo" });
  const rows = payments.length
    ? `<table><thead><tr><th scope="col">Salg</th><th scope="col">Til deg</th><th scope="col">Dato</th></tr></thead><tbody>${payments
        .map(
          (p) =>
            `<tr><td>${escapeHtml(p.title)}${p.refunded ? " (refundert)" : ""}</td><td>${escapeHtml(p.amount)}</td><td>${escapeHtml(date.format(p.created))}</td></tr>`,
        )
        .join("")}</tbody></table>`
    : `<p class="muted">Ingen betalinger ennå.</p>`;
  return page(
    "Express-dashbord – Stripe",
    `<main>
<p class="merchant"><span class="logo" aria-hidden="true">S</span>Stripe Express</p>
<h1>${escapeHtml(name)}</h1>
<div class="card"><p>${payoutsEnabled ? "Utbetalinger er aktivert." : "Utbetalinger er ikke aktivert ennå."}</p>${rows}</div>
</main>`,
    STRIPE_CSS,
  );
}

export const VIPPS_CSS = `
body{background:#fff5f1}
.brand{background:#ff5b24;color:#1a1a1a;padding:1rem;text-align:center;font-weight:900;font-size:1.75rem;letter-spacing:.02em}
.approve{background:#c2410c;color:#fff}
.phone{font-size:1.125rem;font-weight:700}
`;

export function vippsLandingPage(view: VippsView, phone: string, error?: string): string {
  return page(
    `Betal med Vipps – ${view.merchant}`,
    `<header class="brand" aria-label="Vipps">vipps</header>
<main>
<h1>Betal til ${escapeHtml(view.merchant)}</h1>
<p class="amount">${escapeHtml(view.amount)}</p>
<p class="muted">${escapeHtml(view.description)}</p>
<form class="card" method="post" action="/vipps/landing" novalidate>
<input type="hidden" name="token" value="${escapeHtml(view.token)}">
${field("phone", "Mobilnummer", phone, error, 'type="tel" inputmode="tel" autocomplete="tel-national" placeholder="912 34 567" required')}
<p class="hint">Du får betalingen i Vipps-appen på mobilen.</p>
<button class="approve" type="submit" name="action" value="next">Neste</button>
<button class="secondary" type="submit" name="action" value="cancel">Avbryt</button>
</form>
</main>`,
    VIPPS_CSS,
  );
}

export function vippsAppPage(view: VippsView, phoneNumber: string): string {
  const shown = phoneNumber.replace(/^47(\d{3})(\d{2})(\d{3})$/, "+47 $1 $2 $3");
  return page(
    `Vipps – godkjenn betaling`,
    `<header class="brand" aria-label="Vipps">vipps</header>
<main>
<h1>Godkjenn betalingen</h1>
<div class="card">
<p class="muted">Vipps-appen på <span class="phone">${escapeHtml(shown)}</span></p>
<p>Betal til <strong>${escapeHtml(view.merchant)}</strong></p>
<p class="amount">${escapeHtml(view.amount)}</p>
<p class="muted">${escapeHtml(view.description)}</p>
<form method="post" action="/vipps/app">
<input type="hidden" name="token" value="${escapeHtml(view.token)}">
<button class="approve" type="submit" name="action" value="approve">Godkjenn</button>
<button class="secondary" type="submit" name="action" value="cancel">Avbryt</button>
</form>
</div>
</main>`,
    VIPPS_CSS,
  );
}

/** The sandbox's front page: every transfer, refund, capture and cancellation it has made. */
export function moneyPage(rows: Array<{ at: number; kind: string; what: string; amount: string }>): string {
  const date = new Intl.DateTimeFormat("nb-NO", { dateStyle: "short", timeStyle: "medium", timeZone: "Europe/Oslo" });
  const table = rows.length
    ? `<table><thead><tr><th scope="col">Hva</th><th scope="col">Gjelder</th><th scope="col">Beløp</th><th scope="col">Tid</th></tr></thead><tbody>${rows
        .map(
          (r) =>
            `<tr><td>${escapeHtml(r.kind)}</td><td>${escapeHtml(r.what)}</td><td>${escapeHtml(r.amount)}</td><td>${escapeHtml(date.format(new Date(r.at * 1000)))}</td></tr>`,
        )
        .join("")}</tbody></table>`
    : `<p class="muted">Ingen overføringer eller refusjoner ennå.</p>`;
  return page(
    "Lekebyttes betalingssandkasse",
    `<main><h1>Lekebyttes betalingssandkasse</h1><div class="card"><p>Denne serveren etterligner Stripe og Vipps MobilePay for lokal utvikling. Betalingssidene åpnes fra Lekebytte når du kjøper noe. Ingen ekte penger flyttes.</p></div>
<h2>Overføringer og refusjoner</h2><div class="card">${table}</div></main>`,
    STRIPE_CSS,
  );
}

export function messagePage(title: string, text: string, backUrl?: string): string {
  return page(
    title,
    `<main><h1>${escapeHtml(title)}</h1><div class="card"><p>${escapeHtml(text)}</p>${
      backUrl ? `<p><a href="${escapeHtml(backUrl)}">Tilbake til Lekebytte</a></p>` : ""
    }</div></main>`,
  );
}
