// The pixel size of an uploaded photo from its header (worker/lib/image-size.ts), which decides which
// of its copies are made once at its own width (docs/decisions/123-photo-variants.md).
import { describe, expect, it } from "vitest";
import { imageSize } from "../../worker/lib/image-size";
import { jpegPhoto, jpegWithMetadata, pngPhoto, webpPhoto } from "../factories/images";

describe("the size of a photo from its header", () => {
  it("JPEG: from the frame header, after any number of other segments", () => {
    expect(imageSize(jpegPhoto(37, 21), "image/jpeg")).toEqual({ width: 37, height: 21 });
    expect(imageSize(jpegWithMetadata(jpegPhoto(1600, 9)), "image/jpeg")).toEqual({ width: 1600, height: 9 });
  });

  it("PNG: from IHDR", async () => {
    expect(imageSize(await pngPhoto(640, 3), "image/png")).toEqual({ width: 640, height: 3 });
  });

  it("WebP: from the extended header's canvas", () => {
    expect(imageSize(webpPhoto(), "image/webp")).toEqual({ width: 1, height: 1 });
  });

  it("nothing for a header that does not say", () => {
    expect(imageSize(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0, 2]), "image/jpeg")).toBeNull();
    expect(imageSize(new Uint8Array(12), "image/webp")).toBeNull();
    expect(imageSize(jpegPhoto(), "image/gif")).toBeNull();
  });
});
