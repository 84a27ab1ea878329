import type { Bindings } from "../env";
import { isLocal } from "../env";

/**
 * A provider's base URL from configuration (Stripe's and Vipps' APIs, the Vipps Login issuer):
 * plain http only in local mode, where the offline sandbox answers on 127.0.0.1.
 */
export function configuredBaseUrl(env: Bindings, name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} is not a URL: ${value}`);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLocal(env))) {
    throw new Error(`${name} must use https outside local mode`);
  }
  return url;
}
