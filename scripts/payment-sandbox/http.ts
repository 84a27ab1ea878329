// Small HTTP helpers for the sandbox: a request with its body read, and replies as plain values.
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";

export interface SandboxRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Request bodies of the sandbox are small (API params, webhook registrations, page forms). */
const BODY_LIMIT = 256 * 1024;

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) {
        reject(new Error("body too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export function header(req: SandboxRequest, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

export function json(status: number, data: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { "Content-Type": "application/json; charset=utf-8", ...headers }, body: JSON.stringify(data, null, 2) };
}

export function problemJson(status: number, data: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { "Content-Type": "application/problem+json; charset=utf-8", ...headers }, body: JSON.stringify(data) };
}

export function html(status: number, body: string): Reply {
  return {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action *; frame-ancestors 'none'; base-uri 'none'",
    },
    body,
  };
}

export function redirect(location: string): Reply {
  return { status: 303, headers: { Location: location, "Cache-Control": "no-store" }, body: "" };
}

export function isFormRequest(req: SandboxRequest): boolean {
  return /^application\/x-www-form-urlencoded\b/i.test(header(req, "content-type") ?? "");
}
