// The mail that proves an account before a Vipps login is linked to it (docs/decisions/128-vipps-login.md).
import type { Bindings } from "../../env";
import { escapeHtml } from "../../lib/html";
import { sendMail } from "../mail/mail";

export async function sendVippsLinkMail(env: Bindings, to: string, link: string): Promise<void> {
  const app = env.APP_NAME;
  await sendMail(env, {
    to,
    subject: `Koble Vipps til kontoen din hos ${app}`,
    text: `Hei!\n\nNoen logget inn med Vipps og vil koble Vipps til kontoen din hos ${app}. Var det deg, åpner du lenken under, så kan du logge inn med Vipps heretter:\n\n${link}\n\nLenken er gyldig i 30 minutter og kan brukes én gang. Var det ikke deg, kan du se bort fra denne e-posten: ingenting blir koblet uten at lenken åpnes.\n\nHilsen ${app}`,
    html: `<p>Hei!</p><p>Noen logget inn med Vipps og vil koble Vipps til kontoen din hos ${escapeHtml(app)}. Var det deg, åpner du lenken under, så kan du logge inn med Vipps heretter:</p><p><a href="${escapeHtml(link)}">Koble Vipps til kontoen</a></p><p>Lenken er gyldig i 30 minutter og kan brukes én gang. Var det ikke deg, kan du se bort fra denne e-posten: ingenting blir koblet uten at lenken åpnes.</p>`,
  });
}
