import { MESSAGE_MAX_LENGTH, MESSAGE_TOO_LONG_TEXT, messageLength } from "../chat";
import { multiLineText } from "./user-text";
import { z } from "./zod";

// The chat composer checks the length without zod (domain/chat.ts); the Worker imports them from here.
export { MESSAGE_TOO_LONG_TEXT, messageLength };

export const MESSAGE_EMPTY_TEXT = "Meldingen kan ikke være tom";

/** Cleaned, trimmed, not empty, at most MESSAGE_MAX_LENGTH characters (docs/product.md "Validation"). */
export const messageContentSchema = multiLineText(MESSAGE_EMPTY_TEXT).pipe(
  z
    .string()
    .trim()
    .min(1, MESSAGE_EMPTY_TEXT)
    .refine((text) => messageLength(text) <= MESSAGE_MAX_LENGTH, MESSAGE_TOO_LONG_TEXT),
);

export const sendMessageSchema = z.object({
  id: z.uuid({ error: "Ugyldig meldings-id" }), // client-generated so a retried send is stored once (docs/security.md "Nothing lost")
  content: messageContentSchema,
});

export const startConversationSchema = z.object({
  listing_id: z.uuid({ error: "Ugyldig annonse" }),
});

export const markReadSchema = z.object({
  /** Mark up to this message; without it, everything received so far. */
  up_to_seq: z.number().int().min(0).optional(),
});

/**
 * A frame a client sends over the chat socket (ClientFrame in domain/chat.ts). Only its shape:
 * a send's id and content then meet sendMessageSchema in the room's write path, so they are refused
 * with the same messages as over HTTP.
 */
export const clientFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("send"), id: z.string(), content: z.string() }),
  z.object({ type: z.literal("read"), up_to_seq: markReadSchema.shape.up_to_seq }),
]);

export const messagePageQuerySchema = z.object({
  before: z.coerce.number().int().min(1).optional(),
});

export const testMessageSchema = z.object({
  content: messageContentSchema,
});
