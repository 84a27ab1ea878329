import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { AppError } from "./errors";

/**
 * zValidator with the one error envelope: 400 VALIDATION, the first issue as the message and one
 * message per field. Unknown keys are stripped by the zod object schemas.
 */
export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result) => {
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
}
