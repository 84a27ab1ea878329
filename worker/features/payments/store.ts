// Payment rows in D1 (raw SQL with bound parameters; the conditional updates carry the race safety).
import type { Db } from "../../db/client";
import type { RowOf } from "../../db/rows";
import type { payments } from "./schema";
import { nowIso } from "../../lib/crypto";
import { isUuid } from "../../lib/uuid";

export type PaymentStatus = "pending" | "completed" | "failed" | "cancelled" | "expired" | "refunded";

/** A payment as `SELECT *` returns it. */
export type PaymentRow = RowOf<typeof payments>;

export async function paymentById(db: Db, id: string): Promise<PaymentRow | null> {
  if (!isUuid(id)) return null;
  return db.prepare("SELECT * FROM payments WHERE id = ?1").bind(id).first<PaymentRow>();
}

export async function paymentByRef(db: Db, provider: "stripe" | "vipps", ref: string): Promise<PaymentRow | null> {
  return db.prepare("SELECT * FROM payments WHERE provider = ?1 AND provider_ref = ?2").bind(provider, ref).first<PaymentRow>();
}

/** The result pages' `session_id`: a Stripe Checkout Session id or a Vipps reference. */
export async function paymentBySessionId(db: Db, sessionId: string): Promise<PaymentRow | null> {
  return db
    .prepare("SELECT * FROM payments WHERE provider IN ('stripe', 'vipps') AND provider_ref = ?1")
    .bind(sessionId)
    .first<PaymentRow>();
}

/** Close a checkout that is still open (expired, aborted, failed). Returns whether this call closed it. */
export async function closePending(db: Db, id: string, status: Exclude<PaymentStatus, "pending" | "completed">): Promise<boolean> {
  const row = await db
    .prepare("UPDATE payments SET status = ?2, updated_at = ?3 WHERE id = ?1 AND status = 'pending' RETURNING id")
    .bind(id, status, nowIso())
    .first<{ id: string }>();
  return row !== null;
}

/** The Stripe transfer group of an order: its charge and the transfer that pays the seller. */
export function transferGroup(paymentId: string): string {
  return `order-${paymentId}`;
}

/** A stable UUID (version 8 layout) derived from a name: the same cause always gets the same id. */
export async function stableUuid(name: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(name)));
  digest[6] = (digest[6] & 0x0f) | 0x80;
  digest[8] = (digest[8] & 0x3f) | 0x80;
  const hex = [...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
