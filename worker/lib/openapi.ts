// The API reference (OpenAPI 3.1), made from the routes themselves: each route's validators carry the
// zod schema it checks its input with (validate.ts), and each guard who may call it
// (middleware/session.ts). Nothing is written by hand, so the reference cannot drift from the code;
// tests/worker/api-reference.integration.test.ts holds docs/openapi.json and docs/api-reference.md to it.
import { z, type ZodType } from "zod";
import { ERROR_CODES } from "../../domain/errors";

export type InputTarget = "json" | "form" | "query" | "param" | "header" | "cookie";
type JsonSchema = Record<string, unknown>;

const inputs = new WeakMap<object, { target: InputTarget; schema: ZodType }>();
const guards = new WeakMap<object, Who>();
const localOnly = new WeakSet<object>();

/** Who may call a route: anyone, a signed-in user, or staff of the given roles. */
export type Who = { signedIn: true; roles?: string[] };

/** Marks `middleware` as the validator of `target` with `schema`. */
export function describeInput<M extends object>(middleware: M, target: InputTarget, schema: ZodType): M {
  inputs.set(middleware, { target, schema });
  return middleware;
}

/** Marks `middleware` as a guard: only a signed-in user (of `roles`, when given) passes. */
export function describeGuard<M extends object>(middleware: M, who: Who): M {
  guards.set(middleware, who);
  return middleware;
}

/** Marks `middleware` as the one that hides a route outside local mode. */
export function describeLocalOnly<M extends object>(middleware: M): M {
  localOnly.add(middleware);
  return middleware;
}

interface Operation {
  method: string;
  path: string;
  handlers: object[];
}

/** `/listings/:id` → `/listings/{id}`, with the names of its path parameters. */
function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const out = path.replace(/:([A-Za-z_][A-Za-z0-9_]*)(\{[^}]*\})?\??/g, (_, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: out === "" ? "/" : out, params };
}

/** Does middleware mounted with `use` at `pattern` run for `path`? */
function covers(pattern: string, path: string): boolean {
  if (pattern === "*" || pattern === "/*") return true;
  if (pattern.endsWith("/*")) {
    const base = pattern.slice(0, -2);
    return path === base || path.startsWith(`${base}/`);
  }
  return pattern === path;
}

function jsonSchemaOf(schema: ZodType): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/** The properties of an object schema as parameters `in` a place. */
function parametersOf(schema: ZodType, place: "query" | "path" | "header" | "cookie"): JsonSchema[] {
  const json = jsonSchemaOf(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: place,
    required: place === "path" || required.has(name),
    schema: property,
  }));
}

const BODY_TYPES: Partial<Record<InputTarget, string>> = {
  json: "application/json",
  form: "application/x-www-form-urlencoded",
};

const ERROR = { $ref: "#/components/responses/Error" };

/**
 * The OpenAPI 3.1 document of `api` (mounted at `prefix`). Routes under `/dev` (local mode only) are
 * left out; so are bodies that are not validated by a schema (photo uploads, webhooks' raw bodies),
 * which the document names without a body.
 */
export function openApiDocument(api: { routes: { method: string; path: string; handler: object }[] }, prefix = "/api"): JsonSchema {
  const everywhere: { path: string; handler: object }[] = [];
  const operations = new Map<string, Operation>();
  for (const route of api.routes) {
    if (route.method === "ALL") {
      everywhere.push({ path: route.path, handler: route.handler });
      continue;
    }
    if (route.path === "/dev" || route.path.startsWith("/dev/")) continue;
    const key = `${route.method} ${route.path}`;
    const operation = operations.get(key) ?? { method: route.method, path: route.path, handlers: [] };
    operation.handlers.push(route.handler);
    operations.set(key, operation);
  }

  const paths: Record<string, Record<string, JsonSchema>> = {};
  const sorted = [...operations.values()].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  for (const { method, path, handlers } of sorted) {
    const all = [...everywhere.filter((u) => covers(u.path, path)).map((u) => u.handler), ...handlers];
    const { path: documented, params } = openApiPath(`${prefix}${path === "/" ? "" : path}`);
    const parameters: JsonSchema[] = [];
    let requestBody: JsonSchema | undefined;
    let validated = false;
    let who: Who | undefined;
    let local = false;
    for (const handler of all) {
      if (localOnly.has(handler)) local = true;
      const guard = guards.get(handler);
      if (guard) who = guard.roles || !who ? guard : who;
      const input = inputs.get(handler);
      if (!input) continue;
      validated = true;
      const bodyType = BODY_TYPES[input.target];
      if (bodyType) requestBody = { required: true, content: { [bodyType]: { schema: jsonSchemaOf(input.schema) } } };
      else
        parameters.push(...parametersOf(input.schema, input.target === "param" ? "path" : (input.target as "query" | "header" | "cookie")));
    }
    for (const name of params)
      if (!parameters.some((p) => p.in === "path" && p.name === name))
        parameters.push({ name, in: "path", required: true, schema: { type: "string" } });

    const responses: Record<string, unknown> = {
      "2XX": { description: "The answer (its types reach the web through hc<AppType>, web/api/)." },
    };
    if (validated) responses["400"] = ERROR;
    if (who) responses["401"] = ERROR;
    if (who?.roles) responses["403"] = ERROR;
    responses.default = ERROR;
    const segment = documented.split("/")[2] ?? "";
    (paths[documented] ??= {})[method.toLowerCase()] = {
      operationId: `${method.toLowerCase()} ${documented}`,
      tags: [segment],
      ...(who ? { security: [{ session: [] }] } : {}),
      ...(who?.roles ? { "x-roles": who.roles } : {}),
      ...(local ? { "x-local-only": true } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Lekebytte API",
      version: "1",
      description:
        "The Worker's JSON API. Generated from the routes' zod schemas (worker/lib/openapi.ts); the conventions are in docs/api.md.",
    },
    paths,
    components: {
      securitySchemes: {
        session: {
          type: "apiKey",
          in: "cookie",
          name: "__Host-lb_access",
          description: "The session's access cookie (`lb_access` over plain http locally).",
        },
      },
      responses: {
        Error: {
          description: "The one error envelope: a code, a Norwegian message, and a message per field for 400 VALIDATION.",
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["error"],
                properties: {
                  error: {
                    type: "object",
                    required: ["code", "message"],
                    properties: {
                      code: { enum: [...ERROR_CODES] },
                      message: { type: "string" },
                      fields: { type: "object", additionalProperties: { type: "string" } },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
}
