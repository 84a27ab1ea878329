// Fails when code uses a retired word for a concept that has one name (docs/architecture.md
// "Glossary"), offline and in well under a second. Migrations keep the old names: they are history.
import { sourceFiles } from "./source-files.mjs";

/** Each retired word, as a pattern, with the word that replaced it. */
export const RETIRED = [
  { pattern: /escrow/gi, use: "order (the held purchase)" },
  {
    pattern: /\btransactions?_id\b|\btransactionIds?\b|\btransactions\b|\btradeTransactions\b/g,
    use: "order (a purchase) or trade (a swap)",
  },
  { pattern: /\bad_id\b|\badId\b/g, use: "listing_id / listingId" },
  // The analytics category "messaging" is the spec's own value, stored with every event.
  { pattern: /(?<!")messaging|messaging(?!")|Messaging/g, use: "chat" },
  { pattern: /\btradeRecords\b/g, use: "orderRecords" },
];

const files = sourceFiles(["scripts/check-words.mjs"]);
const failures = [];
for (const { file, text } of files) {
  text.split("\n").forEach((line, i) => {
    for (const { pattern, use } of RETIRED)
      for (const m of line.matchAll(pattern)) failures.push(`${file}:${i + 1}: "${m[0]}" is retired: use ${use}`);
  });
}
if (failures.length > 0) {
  console.error(`${failures.join("\n")}\n\nRetired words in code (docs/architecture.md "Glossary").`);
  process.exit(1);
}
console.log(`One word per concept: no retired word in ${files.length} files.`);
