import { MAX_IMAGE_BYTES } from "../../domain/limits";
import { PHOTO_REFUSALS } from "../../domain/photos";
import { AppError } from "./errors";

/** Read a request body, refusing (413) as soon as it passes the limit instead of buffering it all. */
export async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  declaredLength: number | null,
  limit = MAX_IMAGE_BYTES,
): Promise<Uint8Array> {
  if (declaredLength !== null && declaredLength > limit) throw new AppError("PAYLOAD_TOO_LARGE", PHOTO_REFUSALS.tooLarge);
  if (!body) throw new AppError("VALIDATION", PHOTO_REFUSALS.missing);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new AppError("PAYLOAD_TOO_LARGE", PHOTO_REFUSALS.tooLarge);
    }
    chunks.push(value);
  }
  if (total === 0) throw new AppError("VALIDATION", PHOTO_REFUSALS.missing);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}
