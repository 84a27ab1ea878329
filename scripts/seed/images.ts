// Demo listing photos, drawn by code: a toy illustration on a soft "product photo" backdrop (wall,
// table, bokeh, floor shadow), encoded as 800×600 JPEG. Deterministic for a given spec. Nothing is
// downloaded and no binary is committed. The scene is here; the toys are drawn by the motifs
// (motifs-*.ts, by kind of toy) with the painter (painter.ts) on raster.ts's canvas.
import jpeg from "jpeg-js";
import { Canvas, H, W, circle, darken, hashString, hex, mix, rng } from "./raster";
import { CREATIVE_MOTIFS } from "./motifs-creative";
import { DOLL_MOTIFS } from "./motifs-dolls";
import { GAME_MOTIFS } from "./motifs-games";
import { VEHICLE_MOTIFS } from "./motifs-vehicles";
import { type Draw, Painter } from "./painter";

export const MOTIFS = [
  "bricks",
  "boat",
  "car",
  "train",
  "tractor",
  "teddy",
  "doll",
  "dollhouse",
  "puzzle",
  "globe",
  "dice",
  "cards",
  "chess",
  "rings",
  "rattle",
  "babygym",
  "football",
  "beachball",
  "skis",
  "skates",
  "tablet",
  "walkie",
  "robot",
  "crayons",
  "pegboard",
  "easel",
  "bucket",
  "scooter",
  "tricycle",
  "books",
  "crown",
] as const;
export type Motif = (typeof MOTIFS)[number];

export interface ImageSpec {
  motif: Motif;
  /** Main colour of the toy (hex), kept across a listing's photos. */
  color: string;
  /** Any stable string: picks backdrop and small variations. */
  seed: string;
  /** 0 = front, 1 = mirrored and a little closer, 2 = close-up. */
  view: number;
}

const BACKDROPS: { top: string; bottom: string; table: string; tableEdge: string }[] = [
  { top: "#eef8f3", bottom: "#cfeee0", table: "#f6eee3", tableEdge: "#e6d8c4" }, // mint
  { top: "#fff4ea", bottom: "#ffd9c2", table: "#f7f1ea", tableEdge: "#e9dccd" }, // peach
  { top: "#f4f0ff", bottom: "#ddd3fb", table: "#f2edf7", tableEdge: "#ddd3e8" }, // lavender
  { top: "#eef7ff", bottom: "#cde4fa", table: "#f4efe8", tableEdge: "#e2d7c9" }, // sky
  { top: "#fffcea", bottom: "#f9ecbc", table: "#f1e6d3", tableEdge: "#dfcfb4" }, // butter
  { top: "#fff3f5", bottom: "#f9d3dc", table: "#f6eeea", tableEdge: "#e6d6cf" }, // rose
  { top: "#f1f5ea", bottom: "#d8e5c6", table: "#eee6d8", tableEdge: "#dacdb6" }, // sage
];

const DRAW: Record<Motif, Draw> = { ...GAME_MOTIFS, ...VEHICLE_MOTIFS, ...DOLL_MOTIFS, ...CREATIVE_MOTIFS };

// ---- scene -------------------------------------------------------------------------------------

export function renderListingImage(spec: ImageSpec): Buffer {
  const { canvas } = renderScene(spec, W, H);
  const rgba = canvas.toRGBA();
  return Buffer.from(jpeg.encode({ data: rgba, width: W, height: H }, 80).data);
}

/** The scene at any size (the seed uses 800×600; a contact sheet for checking uses small tiles). */
export function renderScene(spec: ImageSpec, width: number, height: number): { canvas: Canvas; seed: number } {
  const seed = hashString(`${spec.seed}:${spec.view}`);
  const r = rng(seed);
  const backdrop = BACKDROPS[hashString(`${spec.seed}:${spec.view}:bg`) % BACKDROPS.length];
  const view = spec.view % 3;
  const camera = {
    scale: view === 0 ? 1.06 : view === 1 ? 1.16 : 1.32,
    offsetX: view === 0 ? 0 : view === 1 ? -20 : 15,
    offsetY: view === 0 ? 0 : view === 1 ? -30 : -60,
    mirror: view === 1,
  };
  const size = width / W;
  const c = new Canvas(width, height, {
    scale: camera.scale * size,
    offsetX: camera.offsetX * size,
    offsetY: camera.offsetY * size,
    mirror: camera.mirror,
  });
  const top = hex(backdrop.top);
  const bottom = hex(backdrop.bottom);
  const table = hex(backdrop.table);
  const edge = hex(backdrop.tableEdge);
  const horizon = 0.7 + (r() - 0.5) * 0.06;
  c.background(
    (v) => {
      if (v < horizon) return mix(top, bottom, v / horizon);
      const t = (v - horizon) / (1 - horizon);
      return mix(mix(edge, table, Math.min(1, t * 3)), darken(table, 0.06), t);
    },
    { cx: 0.5, cy: 0.45, strength: 0.35, max: 0.18 },
    seed,
  );
  // soft bokeh on the wall
  for (let i = 0; i < 6; i++) {
    const x = r() * W;
    const y = r() * H * 0.55;
    const rad = 30 + r() * 70;
    c.fill(circle(x, y, rad), [x - rad, y - rad, x + rad, y + rad], [255, 255, 255], { alpha: 0.18 + r() * 0.2, soft: 18 });
  }
  const painter = new Painter(c, r);
  DRAW[spec.motif](painter, hex(spec.color));
  return { canvas: c, seed };
}
