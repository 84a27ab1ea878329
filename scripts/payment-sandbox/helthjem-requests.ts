// Helthjem's refusals (`{ errorKey, statusCode, message }`) and the checks of a request's body, as the
// sandbox plays them (docs/decisions/154-helthjem-carrier.md).
import { POSTAL_CODE_RE } from "./bring-places";
import { json, type Reply } from "./http";

export interface HelthjemParty {
  type: "consignee" | "consignor";
  name: string;
  address: string;
  zipCode: string;
  postalName: string;
  countryCode: string;
  phone1: string;
  email?: string | null;
  reference?: string | null;
}

/** A refusal in Helthjem's shape. */
export class HelthjemError extends Error {
  constructor(
    readonly status: number,
    readonly errorKey: string,
    message: string,
  ) {
    super(message);
  }
}

export function refusal(e: HelthjemError): Reply {
  return json(e.status, { errorKey: e.errorKey, statusCode: e.status, message: e.message, timestamp: new Date().toISOString() });
}

export function misused(): Reply {
  return refusal(new HelthjemError(422, "idempotency.key.reused", "Idempotency-Key was used with a different request."));
}

export function parse(body: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // refused below
  }
  throw new HelthjemError(400, "invalid.request", "The request body is not a JSON object.");
}

export function party(raw: Record<string, unknown> | undefined, type: HelthjemParty["type"]): HelthjemParty {
  const p = raw ?? {};
  for (const field of ["name", "address", "zipCode", "postalName"] as const)
    if (typeof p[field] !== "string" || !(p[field] as string).trim())
      throw new HelthjemError(400, `invalid.${type}`, `${type}.${field} is required.`);
  if (!POSTAL_CODE_RE.test(p.zipCode as string))
    throw new HelthjemError(400, `invalid.${type}`, `${type}.zipCode is not a Norwegian postal code.`);
  if (p.countryCode !== "NO") throw new HelthjemError(400, `invalid.${type}`, `${type}.countryCode must be NO.`);
  return p as unknown as HelthjemParty;
}
