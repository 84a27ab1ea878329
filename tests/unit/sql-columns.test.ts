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
import ts from "typescript";
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

/** The SQL texts of one file: literals, and templates with their parts filled in where known. */
function statementsOf(file: string): { statements: Statement[]; creates: string[] } {
  const source = ts.createSourceFile(file, readFileSync(path.join(root, file), "utf8"), ts.ScriptTarget.Latest, true);
  const constants = new Map<string, ts.Expression>();
  const collect = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) constants.set(node.name.text, node.initializer);
    ts.forEachChild(node, collect);
  };
  collect(source);

  let glued = false;
  const textOf = (expr: ts.Expression, depth = 0): string | null => {
    if (depth > 5) return null;
    if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return expr.text;
    if (ts.isParenthesizedExpression(expr)) return textOf(expr.expression, depth + 1);
    if (ts.isIdentifier(expr)) {
      const init = constants.get(expr.text);
      return init ? textOf(init, depth + 1) : null;
    }
    if (ts.isTemplateExpression(expr)) {
      let text = expr.head.text;
      for (const span of expr.templateSpans) {
        const known = textOf(span.expression, depth + 1);
        if (known === null && (/\w$/.test(text) || /^\w/.test(span.literal.text))) glued = true;
        text += (known ?? "1") + span.literal.text;
      }
      return text;
    }
    if (ts.isBinaryExpression(expr) && expr.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const [left, right] = [textOf(expr.left, depth + 1), textOf(expr.right, depth + 1)];
      return left !== null && right !== null ? left + right : null;
    }
    return null;
  };

  const statements: Statement[] = [];
  const creates: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      glued = false;
      const text = textOf(node);
      if (text !== null && SQL.test(text))
        statements.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, sql: text, glued });
      else if (text !== null && CREATE.test(text)) creates.push(text);
      return; // a template's own parts are not statements of their own
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
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
