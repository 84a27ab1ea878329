// Every text a person writes goes through one of these (docs/decisions/081): the listing rule of
// domain/text.ts (controls, bidi overrides and the BOM removed; a text with nothing visible left is
// empty), applied before the schema's own trim and length checks, so what is checked is what is
// stored. A new user-text field uses these rather than a bare z.string().
import { cleanMultiLine, cleanSingleLine } from "../text";
import { z } from "./zod";

/** Required text, kept on several lines (messages, descriptions). `error`: the message when it is not text. */
export function multiLineText(error?: string) {
  return z.string({ error }).transform(cleanMultiLine);
}

/** Required text on one line (names, subjects): line breaks and tabs become spaces. */
export function singleLineText(error?: string) {
  return z.string({ error }).transform(cleanSingleLine);
}

/** Optional multi-line text: absent or null is "" here; the field's schema decides what "" is stored as. */
export function optionalMultiLineText(error?: string) {
  return z
    .string({ error })
    .nullish()
    .transform((v) => (v == null ? "" : cleanMultiLine(v)));
}

/** Optional one-line text, like optionalMultiLineText. */
export function optionalSingleLineText(error?: string) {
  return z
    .string({ error })
    .nullish()
    .transform((v) => (v == null ? "" : cleanSingleLine(v)));
}
