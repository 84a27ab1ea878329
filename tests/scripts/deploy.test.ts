// scripts/deploy.mjs deploys only a build made for the environment it deploys: after a plain
// `vite build`, `wrangler deploy --env staging` would publish the top-level (local) configuration
// without a word, so the script reads the built configuration first.
import { describe, expect, it } from "vitest";
import { builtConfigProblem } from "../../scripts/deploy.mjs";

const built = (environment: string | undefined, origin = `https://${environment}.lekebytte.example`) => ({
  targetEnvironment: environment,
  name: environment ? `lekebytte-${environment}` : "lekebytte",
  vars: { APP_ENV: environment ?? "production", APP_ORIGIN: environment ? origin : "http://localhost:8787" },
});

describe("builtConfigProblem", () => {
  it("accepts a build made for the environment", () => {
    expect(builtConfigProblem(built("staging"), "staging")).toBeNull();
    expect(builtConfigProblem(built("production"), "production")).toBeNull();
  });

  it("refuses a plain build (the top level) and another environment's build", () => {
    expect(builtConfigProblem(built(undefined), "staging")).toBe('the build is for "the top level", not staging');
    expect(builtConfigProblem(built("staging"), "production")).toBe('the build is for "staging", not production');
  });

  it("refuses a build whose name, APP_ENV or origin is not the environment's", () => {
    expect(builtConfigProblem({ ...built("staging"), name: "lekebytte" }, "staging")).toMatch(/"lekebytte", not "lekebytte-staging"/);
    expect(builtConfigProblem({ ...built("staging"), vars: { APP_ENV: "local", APP_ORIGIN: "https://x.example" } }, "staging")).toMatch(
      /APP_ENV is "local"/,
    );
    expect(builtConfigProblem(built("staging", "http://localhost:8787"), "staging")).toMatch(/APP_ORIGIN/);
  });
});
