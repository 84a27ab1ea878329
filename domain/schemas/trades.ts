import { TRADE_MESSAGE_MAX_LENGTH } from "../trades";
import { messageLength } from "./chat";
import { optionalMultiLineText } from "./user-text";
import { z } from "./zod";
import { formatNumber } from "../format";

export const TRADE_CHOOSE_LISTING_TEXT = "Velg hva du vil tilby i bytte";
export const TRADE_MESSAGE_TOO_LONG_TEXT = `Meldingen kan ikke være lengre enn ${formatNumber(TRADE_MESSAGE_MAX_LENGTH)} tegn`;

/**
 * "Send bytteforslag" (docs/product.md "Validation"): the listing wanted, one of the sender's own listings, and
 * an optional message, cleaned, trimmed and stored as null when empty. The sender, the recipient and the
 * status are the server's.
 */
export const createTradeOfferSchema = z.object({
  requested_listing_id: z.uuid({ error: "Ugyldig annonse" }),
  offered_listing_id: z.uuid({ error: TRADE_CHOOSE_LISTING_TEXT }),
  message: optionalMultiLineText()
    .pipe(
      z
        .string()
        .trim()
        .refine((text) => messageLength(text) <= TRADE_MESSAGE_MAX_LENGTH, TRADE_MESSAGE_TOO_LONG_TEXT),
    )
    .transform((text) => (text ? text : null)),
});

export const tradeHistoryQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).max(10_000).default(0),
});

export const tradeOffersDirectionSchema = z.object({
  direction: z.enum(["sent", "received"], { error: "Ugyldig fane" }),
});
