// Photo-sized test pictures: what the web app uploads after scaling a phone photo (1600×1200 JPEG at
// its quality 0.82, web/lib/imageScale.ts), with a photo's detail. A demo scene (scripts/seed/images.ts)
// alone is a clean drawing that compresses five times better than a photo; here it is covered with
// texture at several scales (value noise from 2 to 40 px) and sensor grain, so its bytes per pixel
// (about 1.4 at 1,600 px) and those of its smaller copies are a phone photo's, not a drawing's.
// Deterministic for an index. Nothing is downloaded and no binary is committed.
import jpeg from "jpeg-js";
import { MOTIFS, renderScene } from "../../scripts/seed/images";
import { rng } from "../../scripts/seed/raster";

const TEXTURE_CELLS = [2, 4, 8, 16, 40];
const TEXTURE_AMPLITUDE = 10;
const GRAIN = 6;

/** Smooth noise in [-1, 1] with features `cell` px apart. */
function valueNoise(width: number, height: number, cell: number, random: () => number): Float32Array {
  const gw = Math.ceil(width / cell) + 2;
  const grid = new Float32Array(gw * (Math.ceil(height / cell) + 2)).map(() => random() * 2 - 1);
  const smooth = (t: number) => t * t * (3 - 2 * t);
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const iy = Math.floor(y / cell);
    const sy = smooth(y / cell - iy);
    for (let x = 0; x < width; x++) {
      const ix = Math.floor(x / cell);
      const sx = smooth(x / cell - ix);
      const a = grid[iy * gw + ix];
      const b = grid[iy * gw + ix + 1];
      const c = grid[(iy + 1) * gw + ix];
      const d = grid[(iy + 1) * gw + ix + 1];
      const top = a + (b - a) * sx;
      out[y * width + x] = top + (c + (d - c) * sx - top) * sy;
    }
  }
  return out;
}

/** The `index`th test photo as a JPEG, `width`×`height` (1600×1200 unless told). */
export function realSizePhoto(index: number, { width = 1600, height = 1200 } = {}): Uint8Array {
  const { canvas } = renderScene(
    { motif: MOTIFS[index % MOTIFS.length], color: "#e63946", seed: `photo-${index}`, view: index % 3 },
    width,
    height,
  );
  const random = rng(index + 1);
  const layers = TEXTURE_CELLS.map((cell) => valueNoise(width, height, cell, random));
  const data = canvas.data;
  for (let p = 0, i = 0; p < width * height; p++, i += 4) {
    let v = (random() - 0.5) * GRAIN;
    for (const layer of layers) v += layer[p] * TEXTURE_AMPLITUDE;
    data[i] += v;
    data[i + 1] += v * 0.95;
    data[i + 2] += v * 0.9;
  }
  return new Uint8Array(jpeg.encode({ data, width, height }, 82).data);
}
