import type { Bindings } from "../../env";
import { isLocal } from "../../env";
import type { Db } from "../../db/client";
import { escapeHtml } from "../../lib/html";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Local mode keeps every mail in the dev outbox (shown at /dev/mail) so sign-up works offline.
 * Production sends through Cloudflare's e-mail sending binding `EMAIL`.
 */
export async function sendMail(env: Bindings, mail: Mail): Promise<void> {
  if (isLocal(env)) {
    await env.DB.prepare("INSERT INTO dev_outbox (id, to_address, subject, text_body, html_body) VALUES (?1, ?2, ?3, ?4, ?5)")
      .bind(crypto.randomUUID(), mail.to, mail.subject, mail.text, mail.html ?? null)
      .run();
    return;
  }
  if (!env.EMAIL) throw new Error("No EMAIL binding configured for sending mail");
  await env.EMAIL.send({ from: env.CONTACT_EMAIL, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
}

export function confirmationMail(env: Bindings, to: string, displayName: string, link: string): Mail {
  const name = displayName || "der";
  return {
    to,
    subject: `Bekreft e-postadressen din hos ${env.APP_NAME}`,
    text: `Hei ${name}!\n\nTakk for at du registrerte deg hos ${env.APP_NAME}. Bekreft e-postadressen din ved å åpne lenken under:\n\n${link}\n\nLenken er gyldig i 24 timer og kan brukes én gang. Har du ikke registrert deg, kan du se bort fra denne e-posten.\n\nHilsen ${env.APP_NAME}`,
    html: `<p>Hei ${escapeHtml(name)}!</p><p>Takk for at du registrerte deg hos ${escapeHtml(env.APP_NAME)}. Bekreft e-postadressen din:</p><p><a href="${escapeHtml(link)}">Bekreft e-postadressen</a></p><p>Lenken er gyldig i 24 timer og kan brukes én gang. Har du ikke registrert deg, kan du se bort fra denne e-posten.</p>`,
  };
}

export interface OutboxMail {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  created_at: string;
}

/** The newest 50 mails of the local outbox, optionally for one address (local mode only). */
export async function devOutbox(db: Db, to?: string): Promise<OutboxMail[]> {
  const stmt = to
    ? db
        .prepare(
          "SELECT id, to_address, subject, text_body, created_at FROM dev_outbox WHERE to_address = ?1 ORDER BY created_at DESC LIMIT 50",
        )
        .bind(to)
    : db.prepare("SELECT id, to_address, subject, text_body, created_at FROM dev_outbox ORDER BY created_at DESC LIMIT 50");
  return (await stmt.all<OutboxMail>()).results;
}
