// Stripe's error envelope and the parameter checks that raise it (missing, unknown or invalid
// parameters, as Stripe words them), and amounts written as its messages and the hosted pages
// write them.
import type { FormObject } from "./form";
import { json, type Reply } from "./http";

export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: "invalid_request_error" | "api_error" | "card_error" | "idempotency_error",
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

export const missing = (param: string) =>
  new StripeError(400, "invalid_request_error", `Missing required param: ${param}.`, "parameter_missing", param);
const unknownParam = (param: string) =>
  new StripeError(400, "invalid_request_error", `Received unknown parameter: ${param}`, "parameter_unknown", param);

export function integer(raw: string, param: string): number {
  if (!/^-?\d+$/.test(raw))
    throw new StripeError(400, "invalid_request_error", `Invalid integer: ${raw}`, "parameter_invalid_integer", param);
  return Number(raw);
}

export function allowOnly(params: FormObject, allowed: string[]): void {
  for (const key of Object.keys(params)) if (!allowed.includes(key)) throw unknownParam(key);
}

export function isUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

export function errorReply(error: StripeError, headers: Record<string, string>): Reply {
  return json(
    error.status,
    {
      error: {
        ...(error.code ? { code: error.code, doc_url: `https://stripe.com/docs/error-codes/${error.code.replace(/_/g, "-")}` } : {}),
        message: error.message,
        ...(error.param ? { param: error.param } : {}),
        request_log_url: `https://dashboard.stripe.com/test/logs/${headers["Request-Id"]}`,
        type: error.type,
      },
    },
    headers,
  );
}

export function money(minor: number, currency: string): string {
  const amount = new Intl.NumberFormat("nb-NO", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(minor / 100);
  return currency.toLowerCase() === "nok" ? `${amount} kr` : `${amount} ${currency.toUpperCase()}`;
}
