import { osloDay } from "../../../domain/format";
import { exportMyData } from "../../api/account";

/** "lekebytte-mine-data-2026-03-03.json": the Oslo date, whatever the device's time zone. */
export function exportFileName(now: Date = new Date()): string {
  return `lekebytte-mine-data-${osloDay(now)}.json`;
}

/**
 * POST /api/me/export with the password again, through the API client (so an expired access cookie
 * is refreshed first, which a plain link cannot do), saved as a JSON file.
 */
export async function downloadMyData(password: string): Promise<void> {
  const data = await exportMyData(password);
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = exportFileName();
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers start the download after click() returns; give them a moment before revoking.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
