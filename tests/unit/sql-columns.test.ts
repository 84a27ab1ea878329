// Every SQL statement the Worker's code spells out is prepared against the schema the migrations
// make, in SQLite (node:sqlite), in about a second: a misspelt or renamed table or column fails here
// instead of in the one Worker test that happens to run the statement. A statement built from
// fragments is put together from the same file's constants where it can be; a fragment this test
// cannot know (a function's result) stands as `1`, and a statement that then does not parse is
// counted, not checked. The chat rooms' own storage (Durable Object SQLite) has its own schema:
// the room's CREATE statements.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseSync } from "oxc-parser";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const SQL = /^\s*(SELECT\s|INSERT\s+(OR\s+\w+\s+)?INTO\s|UPDATE\s+\S+\s+SET\s|DELETE\s+FROM\s|WITH\s)/i;
const CREATE = /^\s*CREATE\b/i;
/** Files whose statements run on a chat room's own storage as well as on D1. */
const ROOM_FILES = /worker\/features\/chat\/(room-store|room-mirror|room-frames|conversation-room)\.ts$/;

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(rel);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [rel] : [];
  });
}

function migratedDatabase(): DatabaseSync {
  const db = new DatabaseSync(":memory:");
  const dir = path.join(root, "migrations");
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort())
    for (const statement of readFileSync(path.join(dir, file), "utf8").split("--> statement-breakpoint"))
      if (statement.trim()) db.exec(statement);
  return db;
}

interface Statement {
  file: string;
  line: number;
  sql: string;
  /** A fragment this test could not know stands glued to a name (`t${rank}`): the name is made up. */
  glued: boolean;
}

/** An ESTree node as oxc-parser gives it (TypeScript's own nodes included). */
interface Node {
  type: string;
  start: number;
  [key: string]: unknown;
}

const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && typeof (value as Node).type === "string";

/** The nodes directly under `node`, in source order. */
function childrenOf(node: Node): Node[] {
  const children: Node[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "type" || key === "start" || key === "end") continue;
    if (Array.isArray(value)) children.push(...value.filter(isNode));
    else if (isNode(value)) children.push(value);
  }
  return children;
}

const isString = (node: Node) => node.type === "Literal" && typeof node.value === "string";
const isTemplate = (node: Node) => node.type === "TemplateLiteral";
/** A template literal's quoted part, as the program sees it (escapes resolved). */
const quasiText = (quasi: Node) => (quasi.value as { cooked: string | null; raw: string }).cooked ?? "";

/** The SQL texts of one file: literals, and templates with their parts filled in where known. */
function statementsOf(file: string): { statements: Statement[]; creates: string[] } {
  const text = readFileSync(path.join(root, file), "utf8");
  const { program, errors } = parseSync(file, text, { lang: "ts" });
  if (errors.length > 0) throw new Error(`${file}: ${errors[0].message}`);
  const constants = new Map<string, Node>();
  const collect = (node: Node) => {
    const id = node.id as Node | undefined;
    if (node.type === "VariableDeclarator" && id?.type === "Identifier" && isNode(node.init)) constants.set(id.name as string, node.init);
    for (const child of childrenOf(node)) collect(child);
  };
  collect(program as unknown as Node);

  let glued = false;
  const textOf = (expr: Node, depth = 0): string | null => {
    if (depth > 5) return null;
    if (isString(expr)) return expr.value as string;
    if (expr.type === "ParenthesizedExpression") return textOf(expr.expression as Node, depth + 1);
    if (expr.type === "Identifier") {
      const init = constants.get(expr.name as string);
      return init ? textOf(init, depth + 1) : null;
    }
    if (isTemplate(expr)) {
      const [head, ...quasis] = expr.quasis as Node[];
      let sql = quasiText(head);
      for (const [i, part] of (expr.expressions as Node[]).entries()) {
        const after = quasiText(quasis[i]);
        const known = textOf(part, depth + 1);
        if (known === null && (/\w$/.test(sql) || /^\w/.test(after))) glued = true;
        sql += (known ?? "1") + after;
      }
      return sql;
    }
    if (expr.type === "BinaryExpression" && expr.operator === "+") {
      const [left, right] = [textOf(expr.left as Node, depth + 1), textOf(expr.right as Node, depth + 1)];
      return left !== null && right !== null ? left + right : null;
    }
    return null;
  };

  const lineOf = (offset: number) => text.slice(0, offset).split("\n").length;
  const statements: Statement[] = [];
  const creates: string[] = [];
  const visit = (node: Node) => {
    if (isString(node) || isTemplate(node)) {
      glued = false;
      const sql = textOf(node);
      if (sql !== null && SQL.test(sql)) statements.push({ file, line: lineOf(node.start), sql, glued });
      else if (sql !== null && CREATE.test(sql)) creates.push(sql);
      return; // a template's own parts are not statements of their own
    }
    for (const child of childrenOf(node)) visit(child);
  };
  visit(program as unknown as Node);
  return { statements, creates };
}

const MISSING = /no such (column|table)|has no column named/;
/** The trigger bodies of the search index: checked by running their migration, which is their text. */
const TRIGGER_SQL = "worker/features/search/fold-sql.ts";

/** Not a whole statement: a select list to which a FROM is joined elsewhere, or a made-up name. */
const isFragment = (statement: Statement) => statement.glued || (/^\s*SELECT\b/i.test(statement.sql) && !/\bFROM\b/i.test(statement.sql));

describe("the Worker's SQL against the schema", () => {
  const d1 = migratedDatabase();
  const room = new DatabaseSync(":memory:");
  const all = filesUnder("worker").map((file) => ({ file, ...statementsOf(file) }));
  for (const { file, creates } of all) if (ROOM_FILES.test(file)) for (const create of creates) room.exec(create);

  const problems: string[] = [];
  let checked = 0;
  let unparsed = 0;
  for (const { file, statements } of all)
    for (const statement of statements) {
      if (file === TRIGGER_SQL) continue;
      const errors: string[] = [];
      for (const db of ROOM_FILES.test(file) ? [d1, room] : [d1]) {
        try {
          db.prepare(statement.sql);
          errors.length = 0;
          break;
        } catch (error) {
          errors.push((error as Error).message);
        }
      }
      if (errors.length === 0) checked++;
      else if (!isFragment(statement) && errors.some((e) => MISSING.test(e)))
        problems.push(`${statement.file}:${statement.line}: ${errors.join("; ")}`);
      else unparsed++;
    }

  it("names only tables and columns that exist", () => {
    expect(problems).toEqual([]);
  });

  it("checks nearly every statement (the rest are built from fragments it cannot know)", () => {
    expect(checked).toBeGreaterThan(370);
    expect(unparsed).toBeLessThan(checked / 10);
  });
});
