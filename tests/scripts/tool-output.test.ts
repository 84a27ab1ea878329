// A program's output read by the backup (scripts/backup/d1-read.ts): text decoded as one stream, so a
// Norwegian letter whose two bytes arrive in two chunks comes back whole, never as replacement
// characters in a backup.
import { describe, expect, it } from "vitest";
import { runTool } from "../../scripts/backup/d1-read";

// Writes "FØRDE" with the two bytes of "Ø" in separate writes, a pause between them.
const SPLIT_LETTER = `
const bytes = Buffer.from("FØRDE", "utf8");
process.stdout.write(bytes.subarray(0, 2));
setTimeout(() => process.stdout.write(bytes.subarray(2)), 50);
`;

describe("runTool", () => {
  it("keeps a two-byte letter whole when its bytes come in two chunks", async () => {
    expect(await runTool(process.execPath, ["-e", SPLIT_LETTER], process.env)).toBe("FØRDE");
  });

  it("gives everything written before the program ended, and its error output when it fails", async () => {
    const many = `process.stdout.write("å".repeat(200000)); process.stderr.write("ødelagt"); process.exitCode = 3;`;
    await expect(runTool(process.execPath, ["-e", many], process.env, "verktøy")).rejects.toThrow(/verktøy .* feilet \(kode 3\):\nødelagt/);
    expect(await runTool(process.execPath, ["-e", `process.stdout.write("å".repeat(200000))`], process.env)).toBe("å".repeat(200000));
  });
});
