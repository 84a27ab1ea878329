// The pixel size of a JPEG, PNG or WebP from its header, without decoding it: what the photo copies
// need to know to make no copy wider than the photo twice (docs/decisions/123-photo-variants.md).

export interface ImageSize {
  width: number;
  height: number;
}

/** JPEG start-of-frame markers (baseline, progressive, lossless, arithmetic): they carry the size. */
const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpegSize(bytes: Uint8Array, view: DataView): ImageSize | null {
  let i = 2;
  while (i + 9 < bytes.length && bytes[i] === 0xff) {
    const marker = bytes[i + 1];
    if (SOF_MARKERS.has(marker)) return { height: view.getUint16(i + 5), width: view.getUint16(i + 7) };
    if (marker === 0xda) return null; // the scan starts: no frame header came before it
    i += 2 + view.getUint16(i + 2);
  }
  return null;
}

function webpSize(bytes: Uint8Array, view: DataView): ImageSize | null {
  if (bytes.length < 30) return null;
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  const u24 = (at: number) => bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
  // The first chunk's data starts at 20: VP8X carries the canvas, VP8 (a key frame: tag, start code,
  // then 14-bit sizes) and VP8L (a signature byte, then 14-bit sizes less one) the picture's own.
  if (chunk === "VP8X") return { width: u24(24) + 1, height: u24(27) + 1 };
  if (chunk === "VP8 ") return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  if (chunk === "VP8L") {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return null;
}

/** The size of a JPEG, PNG or WebP (by `mime`), or null when its header does not say. */
export function imageSize(bytes: Uint8Array, mime: string): ImageSize | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (mime === "image/jpeg") return jpegSize(bytes, view);
  if (mime === "image/webp") return webpSize(bytes, view);
  // PNG: IHDR is the first chunk, its width and height right after its type.
  if (mime === "image/png" && bytes.length >= 24) return { width: view.getUint32(16), height: view.getUint32(20) };
  return null;
}
