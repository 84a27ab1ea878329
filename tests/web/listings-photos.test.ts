import { describe, expect, it } from "vitest";
import { isAcceptedPhotoType, selectPhotos, tooManyPhotosText } from "../../web/components/listing-form/photoFiles";
import { fitWithin, prepareImageForUpload } from "../../web/lib/imageScale";
import { postalPlace, titleCasePlace } from "../../domain/place";

const file = (name: string, type: string, size = 100) => ({ name, type, size });

describe("photo rules (docs/product.md, Validation)", () => {
  it("accepts JPEG, JPG, PNG and WebP; judges a file without a type by its name", () => {
    expect(isAcceptedPhotoType(file("a.jpg", "image/jpeg"))).toBe(true);
    expect(isAcceptedPhotoType(file("a.jpg", "image/jpg"))).toBe(true);
    expect(isAcceptedPhotoType(file("a.png", "image/png"))).toBe(true);
    expect(isAcceptedPhotoType(file("a.webp", "image/webp"))).toBe(true);
    expect(isAcceptedPhotoType(file("a.heic", "image/heic"))).toBe(false);
    expect(isAcceptedPhotoType(file("a.gif", "image/gif"))).toBe(false);
    expect(isAcceptedPhotoType(file("IMG_1.JPEG", ""))).toBe(true);
    expect(isAcceptedPhotoType(file("notat.txt", ""))).toBe(false);
  });

  it("names each bad file, then keeps at most five in all", () => {
    const result = selectPhotos(
      [
        file("a.gif", "image/gif"),
        file("b.jpg", "image/jpeg", 5 * 1024 * 1024 + 1),
        file("c.jpg", "image/jpeg"),
        file("d.png", "image/png"),
      ],
      4,
    );
    expect(result.fileErrors).toEqual(["a.gif: Kun JPEG, PNG og WebP er tillatt", "b.jpg: Filen er for stor (maks 5MB)"]);
    expect(result.accepted.map((f) => f.name)).toEqual(["c.jpg"]);
    expect(result.roomLeft).toBe(1);
    // Exactly 5 MB is allowed.
    expect(selectPhotos([file("e.jpg", "image/jpeg", 5 * 1024 * 1024)], 0)).toEqual({
      accepted: [file("e.jpg", "image/jpeg", 5 * 1024 * 1024)],
      fileErrors: [],
      roomLeft: null,
    });
  });

  it("'Du kan bare laste opp {n} bilder til'", () => {
    expect(tooManyPhotosText(3)).toBe("Du kan bare laste opp 3 bilder til");
    expect(tooManyPhotosText(1)).toBe("Du kan bare laste opp 1 bilde til");
  });

  it("with five photos already it never says '0 bilder til': it says the limit is reached", () => {
    const five = selectPhotos([file("f.jpg", "image/jpeg")], 5);
    expect(five).toMatchObject({ accepted: [], roomLeft: 0 });
    expect(tooManyPhotosText(five.roomLeft!)).toBe("Du har allerede 5 bilder, som er det meste en annonse kan ha");
    expect(tooManyPhotosText(0)).not.toMatch(/\b0 bilder/);
  });
});

describe("image scaling", () => {
  it("fits the long side within 1600 px and never enlarges", () => {
    expect(fitWithin(4032, 3024)).toEqual({ width: 1600, height: 1200 });
    expect(fitWithin(3024, 4032)).toEqual({ width: 1200, height: 1600 });
    expect(fitWithin(800, 600)).toEqual({ width: 800, height: 600 });
    expect(fitWithin(10000, 10)).toEqual({ width: 1600, height: 2 });
  });

  it("uploads the original when the browser cannot decode it", async () => {
    const original = new Blob([new Uint8Array([1, 2, 3])], { type: "image/jpeg" });
    expect(await prepareImageForUpload(original)).toBe(original);
  });
});

describe("place names", () => {
  it("title-cases Posten's capitals", () => {
    expect(titleCasePlace("TROMSØ")).toBe("Tromsø");
    expect(titleCasePlace("MO I RANA")).toBe("Mo i Rana");
    expect(titleCasePlace("BØ I TELEMARK")).toBe("Bø i Telemark");
    expect(titleCasePlace("AL")).toBe("Al");
    expect(postalPlace("0150", "OSLO")).toBe("0150 Oslo");
    expect(postalPlace("9999", null)).toBe("9999");
  });
});
