// Fails when an import breaks the Worker's layering (decision 094), offline and in well under a second:
// - domain/ imports nothing of worker/ or web/, and web/ reaches worker/ only by `import type`;
// - inside worker/, a service never imports a router: only app.ts and other *routes.ts files import
//   a routes.ts or *-routes.ts;
// - a feature's data layer (schema.ts, visibility.ts: tables and the SQL predicates over them) and
//   worker/db/ import only data-layer files, worker/lib/ and domain/, so any feature may use them;
// - no two files of worker/, or of domain/, import each other, directly or round a circle.
// - between features, services depend one way: leaving out imports of a data layer, the
//   features' import graph has no circle (decision 094 lists which feature leans on which).
// Imports are read as text (`from "./x"` and `import("./x")`), which is all this codebase uses.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const failures = [];

function filesUnder(dir) {
  const out = [];
  for (const name of readdirSync(path.join(root, dir))) {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) out.push(...filesUnder(rel));
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith(".d.ts")) out.push(rel);
  }
  return out;
}

const importRe = /(import\s+type\s+[^;]*?from\s*|import\s+[^;]*?from\s*|export\s+[^;]*?from\s*|import\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g;
function importsOf(file) {
  const text = readFileSync(path.join(root, file), "utf8");
  return [...text.matchAll(importRe)].map((m) => ({
    typeOnly: /^import\s+type\b/.test(m[1]),
    target: path.normalize(path.join(path.dirname(file), m[2])),
  }));
}

const featureOf = (file) => (file.startsWith("worker/features/") ? file.split(path.sep)[2] : null);
const isRoutes = (file) => /(^|[-/])routes(\.ts)?$/.test(file.replace(/\.tsx?$/, ""));
// A feature's data layer: its tables (schema.ts) and the rules over them that other features
// consult before they read or write (visibility.ts: who may see a listing or a review;
// suspension.ts: who may write). worker/db/ is the data layer of the whole.
const isDataLayer = (file) => /\/(schema|visibility|suspension|columns|tables|client)(\.ts)?$/.test(file) && !isRoutes(file);

for (const file of filesUnder("domain")) {
  for (const { target } of importsOf(file))
    if (target.startsWith("worker/") || target.startsWith("web/"))
      failures.push(`${file} imports ${target}: domain/ stays free of I/O code.`);
}
for (const file of filesUnder("web")) {
  for (const { target, typeOnly } of importsOf(file))
    if (target.startsWith("worker/") && !typeOnly)
      failures.push(`${file} imports ${target} at runtime: the web may only \`import type\` from the Worker.`);
}

// The file graph of worker/ and of domain/: layer direction on every import of worker/, and no
// circle of files in either (domain/ never imports worker/, so no circle crosses them).
const graph = new Map();
const resolve = (target) => [`${target}.ts`, `${target}.tsx`, target, path.join(target, "index.ts")].find((f) => graph.has(f)) ?? target;
const workerFiles = filesUnder("worker");
const domainFiles = filesUnder("domain");
for (const file of [...workerFiles, ...domainFiles]) graph.set(file, []);
for (const file of domainFiles) {
  for (const { target: spec } of importsOf(file)) if (spec.startsWith("domain/")) graph.get(file).push(resolve(spec));
}
for (const file of workerFiles) {
  for (const { target: spec } of importsOf(file)) {
    if (!spec.startsWith("worker/")) continue;
    const target = resolve(spec);
    graph.get(file).push(target);
    if (isRoutes(target) && !isRoutes(file) && file !== path.join("worker", "app.ts"))
      failures.push(`${file} imports the router ${target}: routes call services, never the other way.`);
    if (isDataLayer(file) && !isDataLayer(target) && !target.startsWith("worker/lib/") && !target.startsWith("worker/db/"))
      failures.push(`${file} imports ${target}: a data-layer file (schema, visibility, db/) uses only other data-layer files and lib/.`);
  }
}

// Depth-first search for a circle of files, reported with the files that close it.
const state = new Map();
const stack = [];
function visit(file) {
  state.set(file, "open");
  stack.push(file);
  for (const next of graph.get(file) ?? []) {
    if (state.get(next) === "open")
      failures.push(`files import each other in a circle: ${[...stack.slice(stack.indexOf(next)), next].join(" -> ")}`);
    else if (!state.has(next) && graph.has(next)) visit(next);
  }
  stack.pop();
  state.set(file, "done");
}
for (const file of graph.keys()) if (!state.has(file)) visit(file);

// The features' graph: an edge for every import of another feature's code outside its data layer.
const features = new Map();
for (const [file, targets] of graph) {
  const from = featureOf(file);
  for (const target of targets) {
    const to = featureOf(target);
    if (!from || !to || from === to || isDataLayer(target)) continue;
    if (!features.has(from)) features.set(from, new Map());
    features.get(from).set(to, `${file} -> ${target}`);
  }
}
const featureState = new Map();
const featureStack = [];
function visitFeature(feature) {
  featureState.set(feature, "open");
  featureStack.push(feature);
  for (const [next] of features.get(feature) ?? []) {
    if (featureState.get(next) === "open") {
      const cycle = [...featureStack.slice(featureStack.indexOf(next)), next];
      const edges = cycle.slice(0, -1).map((f, i) => features.get(f).get(cycle[i + 1]));
      failures.push(`features depend on each other in a circle (${cycle.join(" -> ")}):\n    ${edges.join("\n    ")}`);
    } else if (!featureState.has(next)) visitFeature(next);
  }
  featureStack.pop();
  featureState.set(feature, "done");
}
for (const feature of features.keys()) if (!featureState.has(feature)) visitFeature(feature);

if (failures.length > 0) {
  for (const failure of failures) console.error(`✗ ${failure}`);
  process.exit(1);
}
console.log(
  `Layers hold: domain/ and web/ keep their bounds, no circle of files in domain/ (${domainFiles.length} files); in worker/ (${workerFiles.length} files) routes -> services -> data, no circles; ${features.size} features depend one way.`,
);
