// Real image files built in code for upload tests: a JPEG encoded by jpeg-js, a PNG written chunk
// by chunk, and a WebP container around a real 1×1 VP8 frame. `withMetadata` adds what cameras and
// phones write into photos (EXIF with GPS, XMP, IPTC, comments, text chunks), so tests can check
// that the server takes it out again.
import jpeg from "jpeg-js";

const encoder = new TextEncoder();
const text = (s: string) => encoder.encode(s);

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

const u16be = (n: number) => new Uint8Array([(n >> 8) & 0xff, n & 0xff]);
const u32be = (n: number) => new Uint8Array([(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
const u32le = (n: number) => new Uint8Array([n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff]);

/** Where the test photos were "taken": a home address in Oslo. */
export const PHOTO_LOCATION = { latitude: 59.91273, longitude: 10.74609, street: "Storgata 5, 0155 Oslo" };
/** Text written into the camera fields, so a test can search the stored bytes for it. */
export const CAMERA_MAKE = "LekeKamera";

/**
 * An EXIF block (big-endian TIFF) as a phone writes it: IFD0 with Make and a pointer to the GPS IFD
 * holding latitude and longitude as degrees/minutes/seconds rationals with their N/E references.
 */
export function exifWithGps({ latitude, longitude } = PHOTO_LOCATION): Uint8Array {
  const dms = (value: number) => {
    const deg = Math.floor(value);
    const minFloat = (value - deg) * 60;
    const min = Math.floor(minFloat);
    const sec = Math.round((minFloat - min) * 60 * 1000);
    return [deg, 1, min, 1, sec, 1000];
  };
  const make = text(`${CAMERA_MAKE}\0`);
  // Layout: header (8) | IFD0: count(2) + 2 entries(24) + next(4) | Make string | GPS IFD | rationals
  const ifd0 = 8;
  const makeAt = ifd0 + 2 + 2 * 12 + 4;
  const gpsIfd = makeAt + make.length + (make.length % 2);
  const latAt = gpsIfd + 2 + 4 * 12 + 4;
  const lonAt = latAt + 24;
  const entry = (tag: number, type: number, count: number, value: Uint8Array) => concat(u16be(tag), u16be(type), u32be(count), value);
  const ascii2 = (s: string) => concat(text(s), new Uint8Array(4 - s.length));
  const rationals = (values: number[]) => concat(...values.map(u32be));
  return concat(
    text("MM"),
    u16be(42),
    u32be(ifd0),
    u16be(2),
    entry(0x010f, 2, make.length, u32be(makeAt)), // Make
    entry(0x8825, 4, 1, u32be(gpsIfd)), // GPSInfo IFD pointer
    u32be(0),
    make,
    new Uint8Array(make.length % 2),
    u16be(4),
    entry(0x0001, 2, 2, ascii2("N\0")), // GPSLatitudeRef
    entry(0x0002, 5, 3, u32be(latAt)), // GPSLatitude
    entry(0x0003, 2, 2, ascii2("E\0")), // GPSLongitudeRef
    entry(0x0004, 5, 3, u32be(lonAt)), // GPSLongitude
    u32be(0),
    rationals(dms(latitude)),
    rationals(dms(longitude)),
  );
}

/** Read the GPS latitude back out of an EXIF block (to prove the fixture really carries it). */
export function gpsLatitudeOf(exif: Uint8Array): number | null {
  const view = new DataView(exif.buffer, exif.byteOffset, exif.byteLength);
  const ifd0 = view.getUint32(4);
  const entries = view.getUint16(ifd0);
  for (let i = 0; i < entries; i++) {
    const at = ifd0 + 2 + i * 12;
    if (view.getUint16(at) !== 0x8825) continue;
    const gps = view.getUint32(at + 8);
    for (let j = 0; j < view.getUint16(gps); j++) {
      const e = gps + 2 + j * 12;
      if (view.getUint16(e) !== 0x0002) continue;
      const r = view.getUint32(e + 8);
      const part = (k: number) => view.getUint32(r + k * 8) / view.getUint32(r + k * 8 + 4);
      return part(0) + part(1) / 60 + part(2) / 3600;
    }
  }
  return null;
}

export const XMP_PACKET = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="59,54.764N" exif:GPSLongitude="10,44.765E"/></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;

// ------------------------------------------------------------------------------------------------
// JPEG

/** A real baseline JPEG (jpeg-js), a soft gradient `width`×`height`, with only the JFIF APP0 segment. */
export function jpegPhoto(width = 16, height = 12): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data.set([40 + x * 12, 90 + y * 10, 180 - x * 5, 255], i);
    }
  }
  return new Uint8Array(jpeg.encode({ data, width, height }, 90).data);
}

const segment = (marker: number, payload: Uint8Array) => concat(new Uint8Array([0xff, marker]), u16be(payload.length + 2), payload);

/** The JPEG with APP1 EXIF (GPS), APP1 XMP, APP13 IPTC, APP2 MPF, a comment and trailing bytes. */
export function jpegWithMetadata(clean: Uint8Array): Uint8Array {
  const afterApp0 = 2 + 2 + ((clean[4] << 8) | clean[5]);
  const iptc = concat(
    text("Photoshop 3.0\0"),
    text("8BIM"),
    u16be(0x0404),
    u16be(0),
    u32be(20),
    new Uint8Array([0x1c, 0x02, 0x5a, 0, 4]),
    text("Oslo"),
    new Uint8Array(11),
  );
  const metadata = concat(
    segment(0xe1, concat(text("Exif\0\0"), exifWithGps())),
    segment(0xe1, concat(text("http://ns.adobe.com/xap/1.0/\0"), text(XMP_PACKET))),
    segment(0xed, iptc),
    segment(0xe2, concat(text("MPF\0"), text("MM"), u16be(42), u32be(8))),
    segment(0xfe, text(`Tatt hjemme i ${PHOTO_LOCATION.street}`)),
  );
  // A second image appended after EOI (how MPF and some phones carry a copy with its own EXIF).
  const trailer = concat(
    new Uint8Array([0xff, 0xd8]),
    segment(0xe1, concat(text("Exif\0\0"), exifWithGps())),
    new Uint8Array([0xff, 0xd9]),
  );
  return concat(clean.subarray(0, afterApp0), metadata, clean.subarray(afterApp0), trailer);
}

/** Marker types of a JPEG's segments up to the first SOS, e.g. ["E0", "DB", "C0", "C4", "DA"]. */
export function jpegSegments(bytes: Uint8Array): string[] {
  const out: string[] = [];
  let i = 2;
  while (i + 4 <= bytes.length && bytes[i] === 0xff) {
    const marker = bytes[i + 1];
    out.push(marker.toString(16).toUpperCase());
    if (marker === 0xda) break;
    i += 2 + ((bytes[i + 2] << 8) | bytes[i + 3]);
  }
  return out;
}

// ------------------------------------------------------------------------------------------------
// PNG

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const body = concat(text(type), data);
  return concat(u32be(data.length), body, u32be(crc32(body)));
}

async function deflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const PNG_SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A real RGB PNG (`width`×`height` gradient) with IHDR, sRGB, pHYs, IDAT and IEND only. */
export async function pngPhoto(width = 8, height = 6): Promise<Uint8Array> {
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    raw[y * (1 + width * 3)] = 0; // filter: none
    for (let x = 0; x < width; x++) raw.set([x * 30, y * 40, 200], y * (1 + width * 3) + 1 + x * 3);
  }
  const ihdr = concat(u32be(width), u32be(height), new Uint8Array([8, 2, 0, 0, 0]));
  return concat(
    PNG_SIGNATURE,
    pngChunk("IHDR", ihdr),
    pngChunk("sRGB", new Uint8Array([0])),
    pngChunk("pHYs", concat(u32be(2835), u32be(2835), new Uint8Array([1]))),
    pngChunk("IDAT", await deflate(raw)),
    pngChunk("IEND", new Uint8Array()),
  );
}

/** The PNG with eXIf (GPS), tEXt, zTXt, iTXt (XMP), tIME and a private chunk before IDAT, and bytes after IEND. */
export async function pngWithMetadata(clean: Uint8Array): Promise<Uint8Array> {
  const idat = indexOfChunk(clean, "IDAT");
  const metadata = concat(
    pngChunk("eXIf", exifWithGps()),
    pngChunk("tEXt", text(`Location\0${PHOTO_LOCATION.street}`)),
    pngChunk("zTXt", concat(text("Comment\0\0"), await deflate(text(`Tatt hjemme i ${PHOTO_LOCATION.street}`)))),
    pngChunk("iTXt", concat(text("XML:com.adobe.xmp\0\0\0\0\0"), text(XMP_PACKET))),
    pngChunk("tIME", new Uint8Array([0x07, 0xea, 6, 15, 12, 0, 0])),
    pngChunk("prVt", text(CAMERA_MAKE)),
  );
  return concat(clean.subarray(0, idat), metadata, clean.subarray(idat), text(`trailer ${CAMERA_MAKE}`));
}

function indexOfChunk(png: Uint8Array, type: string): number {
  for (const c of pngChunks(png)) if (c.type === type) return c.offset;
  throw new Error(`no ${type}`);
}

/** The chunks of a PNG with their offsets, checking every CRC. */
export function pngChunks(png: Uint8Array): { type: string; offset: number; crcOk: boolean }[] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const out: { type: string; offset: number; crcOk: boolean }[] = [];
  let i = 8;
  while (i + 12 <= png.length) {
    const length = view.getUint32(i);
    const type = String.fromCharCode(...png.subarray(i + 4, i + 8));
    const crcOk = view.getUint32(i + 8 + length) === crc32(png.subarray(i + 4, i + 8 + length));
    out.push({ type, offset: i, crcOk });
    i += 12 + length;
    if (type === "IEND") break;
  }
  return out;
}

// ------------------------------------------------------------------------------------------------
// WebP

/** The VP8 bitstream of a real 1×1 lossy WebP (the one browsers' feature tests decode). */
const VP8_FRAME = Uint8Array.from(atob("UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA"), (c) => c.charCodeAt(0)).subarray(12);

function riffChunk(type: string, data: Uint8Array): Uint8Array {
  return concat(text(type), u32le(data.length), data, new Uint8Array(data.length % 2));
}

function webp(chunks: Uint8Array[]): Uint8Array {
  const body = concat(text("WEBP"), ...chunks);
  return concat(text("RIFF"), u32le(body.length), body);
}

function vp8x(flags: number): Uint8Array {
  return riffChunk("VP8X", new Uint8Array([flags, 0, 0, 0, 0, 0, 0, 0, 0, 0])); // 1×1 canvas
}

/** A real extended-format WebP (VP8X header around a 1×1 VP8 frame) without metadata. */
export function webpPhoto(): Uint8Array {
  return webp([vp8x(0), VP8_FRAME]);
}

/** The same WebP with EXIF (GPS) and XMP chunks and their VP8X flags set, plus an unknown chunk. */
export function webpWithMetadata(): Uint8Array {
  return webp([
    vp8x(0x08 | 0x04),
    VP8_FRAME,
    riffChunk("EXIF", exifWithGps()),
    riffChunk("XMP ", text(XMP_PACKET)),
    riffChunk("LOCA", text(PHOTO_LOCATION.street)),
  ]);
}

/** FourCCs of a WebP's top-level chunks and the VP8X flags byte. */
export function webpChunks(bytes: Uint8Array): { types: string[]; vp8xFlags: number | null; riffSizeOk: boolean } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const types: string[] = [];
  let flags: number | null = null;
  let i = 12;
  while (i + 8 <= bytes.length) {
    const type = String.fromCharCode(...bytes.subarray(i, i + 4));
    const size = view.getUint32(i + 4, true);
    if (type === "VP8X") flags = bytes[i + 8];
    types.push(type);
    i += 8 + size + (size % 2);
  }
  return { types, vp8xFlags: flags, riffSizeOk: view.getUint32(4, true) === bytes.length - 8 };
}

/** Whether `needle` occurs anywhere in `bytes`. */
export function containsBytes(bytes: Uint8Array, needle: string | Uint8Array): boolean {
  const n = typeof needle === "string" ? text(needle) : needle;
  outer: for (let i = 0; i + n.length <= bytes.length; i++) {
    for (let j = 0; j < n.length; j++) if (bytes[i + j] !== n[j]) continue outer;
    return true;
  }
  return false;
}
