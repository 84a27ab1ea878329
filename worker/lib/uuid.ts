/**
 * The shape of every id the app makes (crypto.randomUUID): a path parameter, a cookie part or a
 * stored reference that is not one names nothing, so lookups answer it as unknown without asking D1.
 */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}
