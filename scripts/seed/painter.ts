// What the demo photos are drawn with: the toy palette, shapes with their bounding boxes (signed
// distance functions from raster.ts), and a painter that draws toy parts (outline, shading, sheen)
// and their shadow on the table. The motifs (motifs-*.ts) draw with these.
import {
  type Box,
  type Canvas,
  type Paint,
  type RGB,
  type Sdf,
  arc,
  capsule,
  circle,
  darken,
  ellipse,
  hex,
  intersect,
  polygon,
  ring,
  rotate,
  rotateBox,
  roundRect,
  shaded,
  subtract,
  union,
} from "./raster";

export const TOY = {
  red: hex("#e63946"),
  blue: hex("#2f6fdf"),
  yellow: hex("#ffc93c"),
  green: hex("#3bb273"),
  orange: hex("#ff8c42"),
  purple: hex("#8e6cef"),
  pink: hex("#ff7eb6"),
  teal: hex("#1fb5ac"),
  white: hex("#f7f5ef"),
  wood: hex("#d9a066"),
  woodDark: hex("#a8743f"),
  dark: hex("#2b2d42"),
  grey: hex("#9aa3ad"),
  skin: hex("#f6d3b8"),
  glass: hex("#bfe3f5"),
} as const;

// ---- shapes with bounding boxes -------------------------------------------------------------

export interface Shape {
  sdf: Sdf;
  box: Box;
}
export const C = (cx: number, cy: number, r: number): Shape => ({ sdf: circle(cx, cy, r), box: [cx - r, cy - r, cx + r, cy + r] });
export const E = (cx: number, cy: number, rx: number, ry: number): Shape => ({
  sdf: ellipse(cx, cy, rx, ry),
  box: [cx - rx, cy - ry, cx + rx, cy + ry],
});
export const RR = (x0: number, y0: number, x1: number, y1: number, r: number): Shape => ({
  sdf: roundRect(x0, y0, x1, y1, Math.min(r, (x1 - x0) / 2, (y1 - y0) / 2)),
  box: [x0, y0, x1, y1],
});
export const CAP = (ax: number, ay: number, bx: number, by: number, r: number): Shape => ({
  sdf: capsule(ax, ay, bx, by, r),
  box: [Math.min(ax, bx) - r, Math.min(ay, by) - r, Math.max(ax, bx) + r, Math.max(ay, by) + r],
});
export const POLY = (pts: [number, number][], round = 0): Shape => {
  const p = polygon(pts);
  const xs = pts.map((q) => q[0]);
  const ys = pts.map((q) => q[1]);
  return {
    sdf: round ? (x, y) => p(x, y) - round : p,
    box: [Math.min(...xs) - round, Math.min(...ys) - round, Math.max(...xs) + round, Math.max(...ys) + round],
  };
};
export const RING = (cx: number, cy: number, r: number, t: number): Shape => ({
  sdf: ring(cx, cy, r, t),
  box: [cx - r - t, cy - r - t, cx + r + t, cy + r + t],
});
export const ARC = (cx: number, cy: number, r: number, a0: number, a1: number, t: number): Shape => ({
  sdf: arc(cx, cy, r, a0, a1, t),
  box: [cx - r - t, cy - r - t, cx + r + t, cy + r + t],
});
export const STAR = (cx: number, cy: number, ro: number, ri: number, n = 5, rot = -Math.PI / 2): Shape => {
  const pts: [number, number][] = [];
  for (let i = 0; i < n * 2; i++) {
    const a = rot + (i * Math.PI) / n;
    const r = i % 2 === 0 ? ro : ri;
    pts.push([cx + Math.cos(a) * r, cy + Math.sin(a) * r]);
  }
  return POLY(pts, 2);
};
export const U = (...s: Shape[]): Shape => ({
  sdf: union(...s.map((q) => q.sdf)),
  box: [
    Math.min(...s.map((q) => q.box[0])),
    Math.min(...s.map((q) => q.box[1])),
    Math.max(...s.map((q) => q.box[2])),
    Math.max(...s.map((q) => q.box[3])),
  ],
});
export const CUT = (a: Shape, b: Shape): Shape => ({ sdf: subtract(a.sdf, b.sdf), box: a.box });
export const CLIP = (a: Shape, b: Shape): Shape => ({ sdf: intersect(a.sdf, b.sdf), box: a.box });
export const ROT = (s: Shape, cx: number, cy: number, a: number): Shape => ({
  sdf: rotate(s.sdf, cx, cy, a),
  box: rotateBox(s.box, cx, cy, a),
});
export const GROW = (s: Shape, by: number): Shape => ({
  sdf: (x, y) => s.sdf(x, y) - by,
  box: [s.box[0] - by, s.box[1] - by, s.box[2] + by, s.box[3] + by],
});

// ---- drawing helpers --------------------------------------------------------------------------

export class Painter {
  constructor(
    readonly c: Canvas,
    readonly r: () => number,
  ) {}

  fill(s: Shape, paint: Paint, alpha = 1, soft = 1): void {
    this.c.fill(s.sdf, s.box, paint, { alpha, soft });
  }

  /** A toy part: dark outline, then a shaded body. */
  part(s: Shape, color: RGB, outline = 3, shade = 0.22): void {
    if (outline > 0) this.fill(GROW(s, outline), darken(color, 0.42));
    this.fill(s, shaded(color, s.box, shade));
  }

  /** Soft white sheen. */
  shine(s: Shape, alpha = 0.35): void {
    this.fill(s, [255, 255, 255], alpha, 2);
  }

  /** Contact shadow on the table under an object. */
  shadow(cx: number, y: number, rx: number, ry = 18): void {
    this.fill(E(cx, y, rx, ry), [60, 50, 40], 0.22, 22);
  }

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.r() * list.length)];
  }
}

export type Draw = (p: Painter, main: RGB) => void;

export const eye = (p: Painter, x: number, y: number, r: number): void => {
  p.fill(C(x, y, r), TOY.dark);
  p.fill(C(x - r * 0.35, y - r * 0.35, r * 0.35), [255, 255, 255]);
};

export const wheel = (p: Painter, x: number, y: number, r: number, hub: RGB = TOY.grey): void => {
  p.fill(C(x, y, r + 3), darken(TOY.dark, 0.3));
  p.fill(C(x, y, r), shaded(TOY.dark, [x - r, y - r, x + r, y + r], 0.3));
  p.part(C(x, y, r * 0.48), hub, 2);
  p.fill(C(x, y, r * 0.14), darken(hub, 0.4));
};
