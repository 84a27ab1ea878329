// A shipment's row as the shipping code reads it, typed from the schema.
import type { Db } from "../../db/client";
import type { RowOf } from "../../db/rows";
import type { shipments } from "./schema";

export type ShipmentRow = RowOf<typeof shipments>;

export async function shipmentRow(db: Db, id: string): Promise<ShipmentRow | null> {
  return db.prepare("SELECT * FROM shipments WHERE id = ?1").bind(id).first<ShipmentRow>();
}
