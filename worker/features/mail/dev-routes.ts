import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { localOnly } from "../../middleware/local-only";
import { escapeHtml } from "../../lib/html";
import { devOutbox } from "./mail";

function linkify(text: string): string {
  return escapeHtml(text).replace(/(https?:\/\/[^\s<]+)/g, (url) => `<a href="${url}">${url}</a>`);
}

/** The local outbox: every mail the app "sent" in local mode. Absent (404) outside local mode. */
export const devRoutes = new Hono<AppEnv>()
  .use(localOnly)
  .get("/mail.json", async (c) => c.json(await devOutbox(c.var.db, c.req.query("to")?.toLowerCase())))
  .get("/mail", async (c) => {
    const mails = await devOutbox(c.var.db, c.req.query("to")?.toLowerCase());
    const items = mails
      .map(
        (m) =>
          `<article><h2>${escapeHtml(m.subject)}</h2><p class="meta">Til ${escapeHtml(m.to_address)} · ${escapeHtml(m.created_at)}</p><pre>${linkify(m.text_body)}</pre></article>`,
      )
      .join("");
    return c.html(`<!doctype html><html lang="nb"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Lokal e-post – Lekebytte</title>
<style>body{font-family:system-ui,sans-serif;margin:0 auto;max-width:46rem;padding:1rem;color:#1c1917;background:#fafaf9}article{background:#fff;border:1px solid #d6d3d1;border-radius:.75rem;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap;font:inherit}.meta{color:#57534e;font-size:.875rem}a{color:#0f766e;word-break:break-all}</style></head>
<body><main><h1>Lokal e-post</h1><p>E-post som appen har sendt i lokal modus. Siden finnes bare lokalt.</p>${items || "<p>Ingen e-post ennå.</p>"}</main></body></html>`);
  });
