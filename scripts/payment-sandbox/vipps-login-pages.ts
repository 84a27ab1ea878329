// The sandbox's Vipps Login page: where the real service asks for the phone number and the person
// confirms in the app and consents to sharing, the sandbox lets the developer pick who signs in (a
// test person, or one of their own making) and consent in one step. Plain HTML, no scripts.
import { escapeHtml, field, page, VIPPS_CSS } from "./pages";

export interface TestPerson {
  id: string;
  name: string;
  givenName: string;
  familyName: string;
  email: string;
  emailVerified: boolean;
  /** MSISDN as Vipps gives it: country code, no "+" (4791234567). */
  phone: string;
}

/** Ready-made people: a new person, one whose e-mail is a demo account's, and one whose e-mail Vipps has not verified. */
export const TEST_PERSONS: readonly TestPerson[] = [
  {
    id: "vilde",
    name: "Vilde Vippsen",
    givenName: "Vilde",
    familyName: "Vippsen",
    email: "vilde.vippsen@example.test",
    emailVerified: true,
    phone: "4791234567",
  },
  {
    id: "kari",
    name: "Kari Nordmann",
    givenName: "Kari",
    familyName: "Nordmann",
    email: "kari@lekebytte.test",
    emailVerified: true,
    phone: "4798765432",
  },
  {
    id: "ulrik",
    name: "Ulrik Uverifisert",
    givenName: "Ulrik",
    familyName: "Uverifisert",
    email: "ola@lekebytte.test",
    emailVerified: false,
    phone: "4791112222",
  },
];

export interface CustomPersonForm {
  name: string;
  email: string;
  phone: string;
  emailVerified: boolean;
}

export interface LoginPageView {
  requestId: string;
  merchant: string;
  /** What the merchant asks to see, in words ("navn", "e-postadresse", "telefonnummer"). */
  shares: string[];
  chosen: string;
  custom: CustomPersonForm;
  errors: Partial<Record<"person" | "name" | "email" | "phone", string>>;
}

const LOGIN_CSS = `
fieldset{border:0;margin:0;padding:0}
legend{font-weight:700;font-size:1.0625rem;margin-bottom:.5rem}
.choice{display:flex;gap:.75rem;align-items:flex-start;border:1px solid #dcdfe4;border-radius:.5rem;padding:.75rem;margin:.5rem 0}
.choice input{width:auto;margin-top:.3rem}
.choice label{margin:0;font-weight:400}
.choice strong{display:block}
.custom{border-top:1px solid #e5e7eb;margin-top:1rem;padding-top:.25rem}
.check{display:flex;gap:.5rem;align-items:center;margin-top:.875rem}
.check input{width:auto}
.check label{margin:0;font-weight:400}
`;

const shownPhone = (msisdn: string) => msisdn.replace(/^47(\d{3})(\d{2})(\d{3})$/, "+47 $1 $2 $3");

function choice(id: string, chosen: string, title: string, detail: string): string {
  const inputId = `person-${id}`;
  return `<div class="choice"><input type="radio" id="${inputId}" name="person" value="${escapeHtml(id)}"${chosen === id ? " checked" : ""}><label for="${inputId}"><strong>${escapeHtml(title)}</strong><span class="muted">${escapeHtml(detail)}</span></label></div>`;
}

export function vippsLoginPage(view: LoginPageView): string {
  const persons = TEST_PERSONS.map((p) =>
    choice(p.id, view.chosen, p.name, `${shownPhone(p.phone)} · ${p.email}${p.emailVerified ? "" : " (e-post ikke bekreftet)"}`),
  ).join("\n");
  const { custom, errors } = view;
  return page(
    `Logg inn med Vipps – ${view.merchant}`,
    `<header class="brand" aria-label="Vipps">vipps</header>
<main>
<h1>Logg inn på ${escapeHtml(view.merchant)}</h1>
<p class="muted">${escapeHtml(view.merchant)} ber om å få se ${escapeHtml(listText(view.shares))}.</p>
<form class="card" method="post" action="/vipps/login" novalidate>
<input type="hidden" name="request" value="${escapeHtml(view.requestId)}">
<fieldset>
<legend>Hvem logger inn?</legend>
${errors.person ? `<p class="error">${escapeHtml(errors.person)}</p>` : ""}
${persons}
${choice("custom", view.chosen, "Egen testperson", "Med opplysningene du fyller inn under.")}
</fieldset>
<div class="custom">
${field("name", "Navn", custom.name, errors.name, 'autocomplete="off"')}
${field("email", "E-post", custom.email, errors.email, 'type="email" autocomplete="off"')}
${field("phone", "Mobilnummer", custom.phone, errors.phone, 'type="tel" inputmode="tel" autocomplete="off" placeholder="912 34 567"')}
<div class="check"><input type="checkbox" id="f-email-verified" name="email_verified" value="true"${custom.emailVerified ? " checked" : ""}><label for="f-email-verified">E-postadressen er bekreftet i Vipps</label></div>
</div>
<p class="hint">Sandkassen spør ikke Vipps-appen: du velger hvem som logger inn, og samtykker til å dele opplysningene.</p>
<button class="approve" type="submit" name="action" value="approve">Del og logg inn</button>
<button class="secondary" type="submit" name="action" value="cancel">Avbryt</button>
</form>
</main>`,
    VIPPS_CSS + LOGIN_CSS,
  );
}

function listText(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} og ${items.at(-1)}`;
}
