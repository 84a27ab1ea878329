import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { NEWSLETTER_REFUSALS } from "../../../domain/schemas/content";

export async function subscribe(
  db: Db,
  input: { email: string; name: string | null; signup_page?: string; variant?: string },
): Promise<void> {
  const metadata = JSON.stringify({ signup_page: input.signup_page ?? "/", variant: input.variant ?? "default" });
  const result = await db
    .prepare(
      `INSERT INTO newsletter_subscribers (id, email, name, source, metadata) VALUES (?1, ?2, ?3, 'website', ?4)
       ON CONFLICT (email) DO NOTHING`,
    )
    .bind(crypto.randomUUID(), input.email, input.name, metadata)
    .run();
  if (result.meta.changes === 0) {
    throw new AppError("CONFLICT", NEWSLETTER_REFUSALS.alreadySubscribed);
  }
}
