/**
 * Photos are scaled and re-encoded in the browser before upload (decision 007): a 4 MB phone photo
 * becomes a few hundred KB, which is faster on mobile networks and cheaper to store and serve.
 */

/** The long side of an uploaded photo, in pixels. */
export const MAX_IMAGE_SIDE = 1600;
export const JPEG_QUALITY = 0.82;
const WEBP_QUALITY = 0.85;

export interface ScaledSize {
  width: number;
  height: number;
}

/** Fit within `max` on the long side, keeping the aspect ratio; never enlarges. */
export function fitWithin(width: number, height: number, max: number = MAX_IMAGE_SIDE): ScaledSize {
  const long = Math.max(width, height);
  if (long <= max) return { width, height };
  const scale = max / long;
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

type Canvas2D = OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D;

function makeCanvas(
  width: number,
  height: number,
): { ctx: Canvas2D; toBlob: (type: string, quality?: number) => Promise<Blob | null> } | null {
  if (typeof OffscreenCanvas !== "undefined") {
    const canvas = new OffscreenCanvas(width, height);
    const ctx = canvas.getContext("2d");
    if (!ctx) return null;
    return { ctx, toBlob: (type, quality) => canvas.convertToBlob({ type, quality }).catch(() => null) };
  }
  if (typeof document === "undefined") return null;
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext("2d");
  if (!ctx) return null;
  return { ctx, toBlob: (type, quality) => new Promise((resolve) => canvas.toBlob(resolve, type, quality)) };
}

/** Whether any pixel is not fully opaque (only asked for PNG and WebP sources). */
function hasTransparency(ctx: Canvas2D, width: number, height: number): boolean {
  const { data } = ctx.getImageData(0, 0, width, height);
  for (let i = 3; i < data.length; i += 4) {
    if (data[i] < 255) return true;
  }
  return false;
}

/**
 * The photo to upload: scaled to at most 1600 px on the long side and re-encoded as JPEG (q 0.82),
 * or as WebP (PNG as the last resort) when a PNG/WebP has transparency. The original is returned
 * when decoding or encoding fails, or when the result would not be smaller than an original that
 * needed no scaling. The server's limits (5 MB, JPEG/PNG/WebP) still apply to whatever is sent.
 */
export async function prepareImageForUpload(file: Blob): Promise<Blob> {
  if (typeof createImageBitmap !== "function") return file;
  let bitmap: ImageBitmap;
  try {
    // Phone photos carry their rotation in EXIF; bake it into the pixels.
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    return file;
  }
  try {
    const { width, height } = fitWithin(bitmap.width, bitmap.height);
    const canvas = makeCanvas(width, height);
    if (!canvas) return file;
    canvas.ctx.imageSmoothingQuality = "high";
    canvas.ctx.drawImage(bitmap, 0, 0, width, height);

    const mayBeTransparent = file.type === "image/png" || file.type === "image/webp";
    let out: Blob | null = null;
    if (mayBeTransparent && hasTransparency(canvas.ctx, width, height)) {
      out = await canvas.toBlob("image/webp", WEBP_QUALITY);
      // A browser without a WebP encoder silently gives PNG; ask for PNG explicitly then.
      if (out?.type !== "image/webp") out = await canvas.toBlob("image/png");
    } else {
      out = await canvas.toBlob("image/jpeg", JPEG_QUALITY);
    }
    if (!out || out.size === 0) return file;
    const scaled = width !== bitmap.width || height !== bitmap.height;
    if (!scaled && out.size >= file.size) return file;
    return out;
  } catch {
    return file;
  } finally {
    bitmap.close();
  }
}
