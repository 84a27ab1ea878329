import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { AppError } from "./errors";
import { describeInput } from "./openapi";

/**
 * zValidator with the one error envelope: 400 VALIDATION, the first issue as the message and one
 * message per field. Unknown keys are stripped by the zod object schemas.
 */
export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  const validator = zValidator(target, schema, (result) => {
    if (!result.success) {
      const fields: Record<string, string> = {};
      for (const issue of result.error.issues) {
        const key = issue.path.join(".") || "_";
        fields[key] ??= issue.message;
      }
      const first = result.error.issues[0];
      throw new AppError("VALIDATION", first?.message ?? undefined, fields);
    }
  });
  // The API reference reads each route's input from here (lib/openapi.ts).
  return describeInput(validator, target as Parameters<typeof describeInput>[1], schema);
}
