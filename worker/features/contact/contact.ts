import type { Db } from "../../db/client";

export async function storeContactMessage(
  db: Db,
  userId: string | null,
  input: { name: string; email: string; subject: string; message: string },
): Promise<void> {
  await db
    .prepare("INSERT INTO contact_messages (id, user_id, name, email, subject, message) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
    .bind(crypto.randomUUID(), userId, input.name, input.email, input.subject, input.message)
    .run();
}
