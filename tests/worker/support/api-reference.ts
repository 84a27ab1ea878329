// docs/api-reference.md from the OpenAPI document the Worker makes of its routes (worker/lib/openapi.ts):
// every route with who may call it, and the fields of each body and query with their rules.
type Schema = Record<string, unknown>;
export type Operation = {
  tags: string[];
  security?: unknown[];
  "x-roles"?: string[];
  "x-local-only"?: boolean;
  parameters?: { name: string; in: string; required: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
};

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** A field's type and rules in words: `string, 3–80 characters`, `one of: a, b`, `integer ≥ 0`. */
export function describeSchema(schema: Schema): string {
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    const options = ((schema.anyOf ?? schema.oneOf) as Schema[]).map(describeSchema);
    return [...new Set(options)].join(" or ");
  }
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (Array.isArray(schema.enum)) return `one of ${(schema.enum as unknown[]).map((v) => `\`${JSON.stringify(v)}\``).join(", ")}`;
  const parts: string[] = [];
  const type = schema.type;
  if (type === "array") {
    const items = schema.items ? describeSchema(schema.items as Schema) : "anything";
    parts.push(`list of ${items}`);
    if (schema.minItems !== undefined || schema.maxItems !== undefined) parts.push(range(schema.minItems, schema.maxItems, "items"));
  } else {
    parts.push(typeof type === "string" ? type : Array.isArray(type) ? type.join(" or ") : "any");
    if (schema.format) parts.push(String(schema.format));
    if (schema.minLength !== undefined || schema.maxLength !== undefined)
      parts.push(range(schema.minLength, schema.maxLength, "characters"));
    if (schema.minimum !== undefined) parts.push(`≥ ${schema.minimum}`);
    if (schema.exclusiveMinimum !== undefined) parts.push(`> ${schema.exclusiveMinimum}`);
    if (schema.maximum !== undefined && schema.maximum !== Number.MAX_SAFE_INTEGER) parts.push(`≤ ${schema.maximum}`);
    if (schema.exclusiveMaximum !== undefined) parts.push(`< ${schema.exclusiveMaximum}`);
    // A format (uuid, email, date-time) says what its pattern spells out.
    if (schema.pattern && !schema.format) parts.push(`matching \`${schema.pattern}\``);
  }
  if (schema.default !== undefined) parts.push(`default \`${JSON.stringify(schema.default)}\``);
  return parts.join(", ");
}

function range(min: unknown, max: unknown, unit: string): string {
  if (min !== undefined && max !== undefined) return min === max ? `${min} ${unit}` : `${min}–${max} ${unit}`;
  return min !== undefined ? `at least ${min} ${unit}` : `at most ${max} ${unit}`;
}

/** An object's fields as rows, nested objects by dotted name. */
function fieldRows(schema: Schema, prefix = ""): string[] {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).flatMap(([name, property]) => {
    const row = `| \`${prefix}${name}\` | ${cell(describeSchema(property))} | ${required.has(name) ? "yes" : ""} |`;
    if (property.type === "object" && property.properties) return [row, ...fieldRows(property, `${prefix}${name}.`)];
    const items = property.items as Schema | undefined;
    if (property.type === "array" && items?.type === "object" && items.properties) return [row, ...fieldRows(items, `${prefix}${name}[].`)];
    return [row];
  });
}

function who(operation: Operation): string {
  const who = operation["x-roles"]?.join(", ") ?? (operation.security ? "signed in" : "anyone");
  return operation["x-local-only"] ? `${who} (local mode only)` : who;
}

export type ApiDocument = { paths: Record<string, Record<string, Operation>> };

export function renderApiReference(document: ApiDocument): string {
  const byTag = new Map<string, { method: string; path: string; operation: Operation }[]>();
  for (const [path, methods] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(methods)) {
      const tag = operation.tags[0];
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method: method.toUpperCase(), path, operation }]);
    }

  const out: string[] = [
    "# API reference",
    "",
    "Generated from the routes and the zod schemas they validate with (`worker/lib/openapi.ts`); do not",
    "edit by hand. `npm run api-docs` writes it again, and `npm test` fails while it differs from the",
    "routes. The same document as OpenAPI 3.1: [openapi.json](openapi.json), served at",
    "`/api/openapi.json` in local mode. Conventions (the error envelope, sessions, limits) and what the",
    "answers hold: [api.md](api.md).",
    "",
    "Who: anyone; signed in (the session cookie; 401 without); or the staff roles named (403 for",
    "others). Every route answers errors in the one envelope; a route with input answers 400",
    "`VALIDATION` with a message per field.",
  ];
  for (const tag of [...byTag.keys()].sort()) {
    out.push("", `## ${tag}`, "", "| Method | Path | Who | Input |", "| --- | --- | --- | --- |");
    const details: string[] = [];
    for (const { method, path, operation } of byTag.get(tag)!) {
      const query = (operation.parameters ?? []).filter((p) => p.in === "query");
      const body = operation.requestBody ? Object.entries(operation.requestBody.content)[0] : undefined;
      const input = [body ? `body (${body[0]})` : "", query.length > 0 ? "query" : ""].filter(Boolean).join(", ");
      out.push(`| ${method} | \`${path}\` | ${who(operation)} | ${input || "—"} |`);
      if (!body && query.length === 0) continue;
      details.push("", `### ${method} ${path}`);
      if (query.length > 0) {
        details.push("", "Query:", "", "| Field | Type and rules | Required |", "| --- | --- | --- |");
        for (const p of query) details.push(`| \`${p.name}\` | ${cell(describeSchema(p.schema))} | ${p.required ? "yes" : ""} |`);
      }
      if (body)
        details.push(
          "",
          `Body (${body[0]}):`,
          "",
          "| Field | Type and rules | Required |",
          "| --- | --- | --- |",
          ...fieldRows(body[1].schema),
        );
    }
    out.push(...details);
  }
  return `${out.join("\n")}\n`;
}
