// E-mails to the user a moderation decision concerns (docs/decisions/050-moderation.md): their
// listing was hidden (by a moderator, or automatically after reports) or deleted, their message
// removed, a warning, a suspension. Local mode writes them to the outbox (/dev/mail). Sent after the
// decision is stored; a failed mail is logged and never undoes the decision.
import { formatDate } from "../../../domain/format";
import { SYSTEM_USER_ID } from "../../../domain/chat";
import type { Bindings } from "../../env";
import { escapeHtml } from "../../lib/html";
import { sendMail } from "../mail/mail";

export type ModerationNotice =
  | { kind: "listing-auto-hidden"; listingId: string; title: string }
  | { kind: "listing-hidden"; listingId: string; title: string; reason: string | null }
  | { kind: "listing-deleted"; title: string; reason: string | null }
  | { kind: "message-removed"; conversationId: string; reason: string | null }
  | { kind: "review-hidden"; reason: string | null }
  | { kind: "warning"; reason: string | null }
  | { kind: "suspended"; until: string; reason: string | null };

interface Content {
  subject: string;
  lines: string[];
  link?: { href: string; label: string };
}

function content(env: Bindings, notice: ModerationNotice): Content {
  const origin = env.APP_ORIGIN.replace(/\/$/, "");
  const why = (reason: string | null) => (reason ? [`Årsak: ${reason}`] : []);
  switch (notice.kind) {
    case "listing-auto-hidden":
      return {
        subject: `Annonsen din «${notice.title}» er midlertidig skjult`,
        lines: [
          `Annonsen din «${notice.title}» er rapportert av flere brukere og er derfor skjult midlertidig.`,
          "En moderator ser på saken så snart som mulig. Blir annonsen godkjent, vises den igjen av seg selv.",
        ],
        link: { href: `${origin}/listing/${notice.listingId}`, label: "Se annonsen" },
      };
    case "listing-hidden":
      return {
        subject: `Annonsen din «${notice.title}» er skjult av en moderator`,
        lines: [`En moderator har skjult annonsen din «${notice.title}». Den vises ikke for andre.`, ...why(notice.reason)],
        link: { href: `${origin}/listing/${notice.listingId}`, label: "Se annonsen" },
      };
    case "listing-deleted":
      return {
        subject: `Annonsen din «${notice.title}» er fjernet`,
        lines: [`En moderator har fjernet annonsen din «${notice.title}».`, ...why(notice.reason)],
      };
    case "message-removed":
      return {
        subject: "En melding fra deg er fjernet",
        lines: [
          "En moderator har fjernet en melding du sendte. Begge i samtalen ser nå «Meldingen er fjernet av moderator».",
          ...why(notice.reason),
        ],
        link: { href: `${origin}/chat/${notice.conversationId}`, label: "Åpne samtalen" },
      };
    case "review-hidden":
      return {
        subject: "En vurdering du skrev er skjult",
        lines: [
          "En moderator har skjult en vurdering du skrev. Den vises ikke lenger på profilen og teller ikke i snittet.",
          ...why(notice.reason),
        ],
      };
    case "warning":
      return {
        subject: `Du har fått en advarsel fra ${env.APP_NAME}`,
        lines: ["En moderator har gitt deg en advarsel. Du finner den på profilen din.", ...why(notice.reason)],
        link: { href: `${origin}/profile`, label: "Gå til profilen" },
      };
    case "suspended":
      return {
        subject: `Kontoen din er utestengt til ${formatDate(notice.until)}`,
        lines: [
          `En moderator har utestengt kontoen din til ${formatDate(notice.until)}.`,
          ...why(notice.reason),
          "Til da kan du ikke legge ut annonser, sende meldinger, foreslå bytter eller kjøpe.",
        ],
      };
  }
}

/** Mail `userId` about a decision (best effort: a failure is logged, the decision stands). */
export async function notifyUser(env: Bindings, userId: string, notice: ModerationNotice): Promise<void> {
  if (userId === SYSTEM_USER_ID) return;
  try {
    const user = await env.DB.prepare(
      "SELECT u.email, u.deleted_at, p.display_name FROM users u LEFT JOIN profiles p ON p.user_id = u.id WHERE u.id = ?1",
    )
      .bind(userId)
      .first<{ email: string; deleted_at: string | null; display_name: string | null }>();
    if (!user || user.deleted_at) return;
    const name = user.display_name?.trim() || "der";
    const { subject, lines, link } = content(env, notice);
    const text = [`Hei ${name}!`, "", ...lines, ...(link ? ["", `${link.label}: ${link.href}`] : []), "", `Hilsen ${env.APP_NAME}`].join(
      "\n",
    );
    const html =
      `<p>Hei ${escapeHtml(name)}!</p>` +
      lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("") +
      (link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : "") +
      `<p>Hilsen ${escapeHtml(env.APP_NAME)}</p>`;
    await sendMail(env, { to: user.email, subject, text, html });
  } catch (err) {
    console.warn("Moderation mail failed", notice.kind, err);
  }
}
