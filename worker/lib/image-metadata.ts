// Removing metadata from uploaded photos without re-encoding them (docs/decisions/016-photo-metadata.md).
// Parents photograph toys at home: EXIF GPS tags, XMP and IPTC would publish where they live. Only
// what a decoder needs to draw the picture in the right colours is kept; the compressed image data
// is copied byte for byte. Anything that cannot be parsed is refused rather than stored as it is.
import { AppError } from "./errors";
import { PHOTO_REFUSALS } from "../../domain/photos";

export type ImageMime = "image/jpeg" | "image/png" | "image/webp";

function damaged(): AppError {
  return new AppError("VALIDATION", PHOTO_REFUSALS.damaged, { image: PHOTO_REFUSALS.damaged });
}

/** The photo's bytes without EXIF/GPS, XMP, IPTC, comments, text chunks or trailing data. */
export function stripImageMetadata(bytes: Uint8Array, mime: ImageMime): Uint8Array {
  if (mime === "image/jpeg") return stripJpeg(bytes);
  if (mime === "image/png") return stripPng(bytes);
  return stripWebp(bytes);
}

class Output {
  private parts: Uint8Array[] = [];
  private size = 0;
  push(part: Uint8Array): void {
    this.parts.push(part);
    this.size += part.byteLength;
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(this.size);
    let offset = 0;
    for (const p of this.parts) {
      out.set(p, offset);
      offset += p.byteLength;
    }
    return out;
  }
}

const ascii = (bytes: Uint8Array, from: number, length: number) => String.fromCharCode(...bytes.subarray(from, from + length));

// ---------------------------------------------------------------------------------------------
// JPEG: a sequence of marker segments; entropy-coded data follows each SOS until the next marker.

/**
 * APPn segments kept: APP0 "JFIF" (pixel density), APP2 "ICC_PROFILE" (colours) and APP14 "Adobe"
 * (colour transform of CMYK/YCCK files). Every other APPn goes: APP1 EXIF (GPS, camera, time) and
 * XMP, APP13 IPTC/Photoshop, APP2 MPF (which points at further images appended after EOI), and the
 * vendor segments. COM (comments) goes too.
 */
function keepJpegSegment(marker: number, bytes: Uint8Array, payload: number): boolean {
  if (marker === 0xfe) return false;
  if (marker < 0xe0 || marker > 0xef) return true;
  if (marker === 0xe0) return ascii(bytes, payload, 5) === "JFIF\0";
  if (marker === 0xe2) return ascii(bytes, payload, 12) === "ICC_PROFILE\0";
  if (marker === 0xee) return ascii(bytes, payload, 5) === "Adobe";
  return false;
}

function stripJpeg(bytes: Uint8Array): Uint8Array {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) throw damaged();
  const out = new Output();
  out.push(bytes.subarray(0, 2));
  let i = 2;
  let sawFrame = false;
  for (;;) {
    if (i >= bytes.length) break; // ends without EOI: keep what was read (browsers draw it too)
    if (bytes[i] !== 0xff) throw damaged();
    while (i < bytes.length && bytes[i] === 0xff) i++; // fill bytes before a marker
    if (i >= bytes.length) throw damaged();
    const marker = bytes[i++];
    if (marker === 0xd9) {
      out.push(new Uint8Array([0xff, 0xd9]));
      break; // EOI: anything after it (appended images, vendor trailers) is dropped
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      out.push(new Uint8Array([0xff, marker]));
      continue;
    }
    if (marker === 0x00 || marker === 0xd8) throw damaged();
    if (i + 2 > bytes.length) throw damaged();
    const length = (bytes[i] << 8) | bytes[i + 1];
    if (length < 2 || i + length > bytes.length) throw damaged();
    if ((marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) || marker === 0xf7) sawFrame = true;
    if (keepJpegSegment(marker, bytes, i + 2)) out.push(bytes.subarray(i - 2, i + length));
    i += length;
    if (marker === 0xda) {
      if (!sawFrame) throw damaged();
      // Entropy-coded data: 0xFF is followed by a stuffed 0x00 or a restart marker until the scan ends.
      let j = i;
      while (j < bytes.length) {
        if (bytes[j] === 0xff && j + 1 < bytes.length) {
          const next = bytes[j + 1];
          if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
            j += 2;
            continue;
          }
          if (next === 0xff) {
            j += 1;
            continue;
          }
          break;
        }
        j += 1;
      }
      out.push(bytes.subarray(i, j));
      i = j;
    }
  }
  if (!sawFrame) throw damaged();
  return out.bytes();
}

// ---------------------------------------------------------------------------------------------
// PNG: signature, then chunks (length, type, data, CRC) up to IEND.

/**
 * Chunks kept: the critical ones and those that change how pixels look (transparency, colour space,
 * gamma, HDR metadata, background, pixel size) or animate (APNG). Dropped: tEXt, zTXt, iTXt (where
 * editors write locations, authors and comments), eXIf, tIME and every private or unknown chunk.
 */
const PNG_KEEP = new Set([
  "IHDR",
  "PLTE",
  "IDAT",
  "IEND",
  "tRNS",
  "cHRM",
  "gAMA",
  "iCCP",
  "sBIT",
  "sRGB",
  "cICP",
  "mDCV",
  "cLLI",
  "bKGD",
  "pHYs",
  "acTL",
  "fcTL",
  "fdAT",
]);

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function stripPng(bytes: Uint8Array): Uint8Array {
  if (bytes.length < 8 || !PNG_SIGNATURE.every((b, k) => bytes[k] === b)) throw damaged();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Output();
  out.push(bytes.subarray(0, 8));
  let i = 8;
  let first = true;
  for (;;) {
    if (i + 12 > bytes.length) throw damaged(); // no IEND
    const length = view.getUint32(i);
    const type = ascii(bytes, i + 4, 4);
    const end = i + 12 + length;
    if (length > 0x7fffffff || end > bytes.length || !/^[A-Za-z]{4}$/.test(type)) throw damaged();
    if (first && type !== "IHDR") throw damaged();
    first = false;
    if (PNG_KEEP.has(type)) out.push(bytes.subarray(i, end));
    i = end;
    if (type === "IEND") break; // trailing data is dropped
  }
  return out.bytes();
}

// ---------------------------------------------------------------------------------------------
// WebP: a RIFF container of chunks (FourCC, little-endian size, data, pad byte to an even size).

/** Chunks kept: image data, alpha, animation and the colour profile. EXIF, XMP and unknown chunks go. */
const WEBP_KEEP = new Set(["VP8 ", "VP8L", "VP8X", "ALPH", "ANIM", "ANMF", "ICCP"]);
// VP8X flag bits (first byte of its payload): ICC 0x20, alpha 0x10, EXIF 0x08, XMP 0x04, animation 0x02.
const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

function stripWebp(bytes: Uint8Array): Uint8Array {
  if (bytes.length < 20 || ascii(bytes, 0, 4) !== "RIFF" || ascii(bytes, 8, 4) !== "WEBP") throw damaged();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const riffEnd = 8 + view.getUint32(4, true);
  if (riffEnd > bytes.length || riffEnd < 20) throw damaged();
  const chunks = new Output();
  let i = 12;
  let sawImage = false;
  while (i < riffEnd) {
    if (i + 8 > riffEnd) throw damaged();
    const type = ascii(bytes, i, 4);
    const size = view.getUint32(i + 4, true);
    const end = i + 8 + size + (size % 2);
    if (end > riffEnd && !(end === riffEnd + 1 && size % 2 === 1)) throw damaged();
    const chunkEnd = Math.min(end, riffEnd);
    if (type === "VP8 " || type === "VP8L" || type === "ANMF") sawImage = true;
    if (type === "VP8X") {
      if (size < 10) throw damaged();
      const copy = bytes.slice(i, chunkEnd);
      copy[8] &= ~(VP8X_EXIF | VP8X_XMP);
      chunks.push(copy);
    } else if (WEBP_KEEP.has(type)) {
      chunks.push(bytes.subarray(i, chunkEnd));
    }
    if (WEBP_KEEP.has(type) && chunkEnd < end) chunks.push(new Uint8Array(1)); // the missing pad byte
    i = end;
  }
  if (!sawImage) throw damaged();
  const body = chunks.bytes();
  const out = new Uint8Array(12 + body.length);
  out.set(bytes.subarray(0, 12));
  new DataView(out.buffer).setUint32(4, 4 + body.length, true); // RIFF size covers "WEBP" and the chunks
  out.set(body, 12);
  return out;
}
