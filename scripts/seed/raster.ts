// A tiny anti-aliased rasterizer for the demo images: shapes are signed distance functions (negative
// inside), filled per pixel over their bounding box with a one-pixel soft edge. Everything is drawn
// in "design" coordinates (800×600); a camera (scale, offset, mirror) maps them to pixels, so the
// second and third photo of a listing can show the same toy from a little closer or mirrored.
// Pure TypeScript, no native modules; output goes to jpeg-js.

export type RGB = readonly [number, number, number];
export type Sdf = (x: number, y: number) => number;
export type Box = readonly [number, number, number, number]; // x0, y0, x1, y1 in design space

export interface Camera {
  scale: number;
  offsetX: number;
  offsetY: number;
  mirror: boolean;
}

export const W = 800;
export const H = 600;

// ---- colours -------------------------------------------------------------------------------

export function hex(h: string): RGB {
  const n = parseInt(h.replace("#", ""), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function mix(a: RGB, b: RGB, t: number): RGB {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

export const lighten = (c: RGB, t: number): RGB => mix(c, [255, 255, 255], t);
export const darken = (c: RGB, t: number): RGB => mix(c, [0, 0, 0], t);

// ---- deterministic randomness ------------------------------------------------------------------

/** mulberry32: small, fast, deterministic. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function hashString(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

// ---- signed distance functions ------------------------------------------------------------------

export const circle =
  (cx: number, cy: number, r: number): Sdf =>
  (x, y) =>
    Math.hypot(x - cx, y - cy) - r;

/** Approximate ellipse distance (exact on the axes, good enough for soft edges). */
export const ellipse =
  (cx: number, cy: number, rx: number, ry: number): Sdf =>
  (x, y) => {
    const dx = (x - cx) / rx;
    const dy = (y - cy) / ry;
    const k = Math.hypot(dx, dy);
    if (k === 0) return -Math.min(rx, ry);
    const grad = Math.hypot(dx / rx, dy / ry);
    return ((k - 1) * k) / grad;
  };

export const roundRect = (x0: number, y0: number, x1: number, y1: number, r: number): Sdf => {
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const hx = (x1 - x0) / 2 - r;
  const hy = (y1 - y0) / 2 - r;
  return (x, y) => {
    const qx = Math.abs(x - cx) - hx;
    const qy = Math.abs(y - cy) - hy;
    return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
  };
};

/** A line segment with thickness (round caps). */
export const capsule = (ax: number, ay: number, bx: number, by: number, r: number): Sdf => {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy || 1;
  return (x, y) => {
    const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2));
    return Math.hypot(x - ax - dx * t, y - ay - dy * t) - r;
  };
};

/** Any simple polygon (even-odd), exact distance to its edges. */
export const polygon =
  (pts: readonly (readonly [number, number])[]): Sdf =>
  (x, y) => {
    let d = Infinity;
    let inside = false;
    for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
      const [xi, yi] = pts[i];
      const [xj, yj] = pts[j];
      const ex = xj - xi;
      const ey = yj - yi;
      const t = Math.max(0, Math.min(1, ((x - xi) * ex + (y - yi) * ey) / (ex * ex + ey * ey || 1)));
      d = Math.min(d, Math.hypot(x - xi - ex * t, y - yi - ey * t));
      if (yi > y !== yj > y && x < (ex * (y - yi)) / (ey || 1e-9) + xi) inside = !inside;
    }
    return inside ? -d : d;
  };

/** Ring (annulus) around a circle. */
export const ring =
  (cx: number, cy: number, r: number, thickness: number): Sdf =>
  (x, y) =>
    Math.abs(Math.hypot(x - cx, y - cy) - r) - thickness / 2;

/** Arc of a circle between two angles (radians, y down), with round ends. */
export const arc = (cx: number, cy: number, r: number, a0: number, a1: number, thickness: number): Sdf => {
  const mid = (a0 + a1) / 2;
  const half = Math.abs(a1 - a0) / 2;
  const ends: [number, number][] = [
    [cx + Math.cos(a0) * r, cy + Math.sin(a0) * r],
    [cx + Math.cos(a1) * r, cy + Math.sin(a1) * r],
  ];
  return (x, y) => {
    let da = Math.atan2(y - cy, x - cx) - mid;
    da = Math.atan2(Math.sin(da), Math.cos(da));
    if (Math.abs(da) <= half) return Math.abs(Math.hypot(x - cx, y - cy) - r) - thickness / 2;
    return Math.min(Math.hypot(x - ends[0][0], y - ends[0][1]), Math.hypot(x - ends[1][0], y - ends[1][1])) - thickness / 2;
  };
};

export const union =
  (...s: Sdf[]): Sdf =>
  (x, y) => {
    let d = Infinity;
    for (const f of s) d = Math.min(d, f(x, y));
    return d;
  };
export const intersect =
  (a: Sdf, b: Sdf): Sdf =>
  (x, y) =>
    Math.max(a(x, y), b(x, y));
export const subtract =
  (a: Sdf, b: Sdf): Sdf =>
  (x, y) =>
    Math.max(a(x, y), -b(x, y));

/** Rotate a shape by `angle` radians around (cx, cy). */
export const rotate = (s: Sdf, cx: number, cy: number, angle: number): Sdf => {
  const c = Math.cos(-angle);
  const sn = Math.sin(-angle);
  return (x, y) => {
    const dx = x - cx;
    const dy = y - cy;
    return s(cx + dx * c - dy * sn, cy + dx * sn + dy * c);
  };
};

export function rotateBox(b: Box, cx: number, cy: number, angle: number): Box {
  const pts = [
    [b[0], b[1]],
    [b[2], b[1]],
    [b[0], b[3]],
    [b[2], b[3]],
  ].map(([x, y]) => {
    const dx = x - cx;
    const dy = y - cy;
    return [cx + dx * Math.cos(angle) - dy * Math.sin(angle), cy + dx * Math.sin(angle) + dy * Math.cos(angle)];
  });
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

// ---- the canvas ------------------------------------------------------------------------------

export type Paint = RGB | ((x: number, y: number) => RGB);

export interface FillOptions {
  /** 0..1 */
  alpha?: number;
  /** Edge softness in design pixels (1 = crisp anti-aliasing; larger = blurred, for shadows). */
  soft?: number;
}

export class Canvas {
  /** RGBA, 8 bits per channel: what the JPEG encoder takes, so no conversion pass is needed. */
  readonly data: Uint8ClampedArray;

  constructor(
    readonly width: number,
    readonly height: number,
    readonly camera: Camera = { scale: width / W, offsetX: 0, offsetY: 0, mirror: false },
  ) {
    this.data = new Uint8ClampedArray(width * height * 4);
  }

  /**
   * Fill every pixel (background): a colour per row, darkened towards the corners (vignette), with a
   * little film grain so the gradients do not band in JPEG.
   */
  background(row: (v: number) => RGB, vignette: { cx: number; cy: number; strength: number; max: number }, grainSeed: number): void {
    const { width, height, data } = this;
    const du2 = new Float32Array(width);
    for (let px = 0; px < width; px++) du2[px] = (px / width - vignette.cx) ** 2;
    const r = rng(grainSeed);
    const grain = new Float32Array(4096);
    for (let k = 0; k < grain.length; k++) grain[k] = (r() - 0.5) * 5;
    let n = Math.floor(r() * 4096);
    for (let py = 0; py < height; py++) {
      const v = py / height;
      const [cr, cg, cb] = row(v);
      const dv2 = (v - vignette.cy) ** 2;
      let i = py * width * 4;
      for (let px = 0; px < width; px++, i += 4) {
        const k = 1 - Math.min(vignette.max, (du2[px] + dv2) * vignette.strength);
        const g = grain[(Math.imul(n++, 2654435761) >>> 20) & 4095];
        data[i] = cr * k + g;
        data[i + 1] = cg * k + g;
        data[i + 2] = cb * k + g;
        data[i + 3] = 255;
      }
    }
  }

  /** Design → pixel coordinates (mirror applies around the design centre). */
  private toPx(x: number, y: number): [number, number] {
    const { scale, offsetX, offsetY, mirror } = this.camera;
    const dx = mirror ? W - x : x;
    return [(dx - W / 2) * scale + this.width / 2 + offsetX, (y - H / 2) * scale + this.height / 2 + offsetY];
  }

  /**
   * Fill a shape. Work is done in 8×8-pixel tiles: the distance at a tile's centre bounds the whole
   * tile, so tiles far outside are skipped and tiles deep inside skip the per-pixel distance; only
   * tiles on the edge evaluate the shape per pixel.
   */
  fill(sdf: Sdf, box: Box, paint: Paint, opts: FillOptions = {}): void {
    const alpha = opts.alpha ?? 1;
    const { scale, offsetX, offsetY, mirror } = this.camera;
    const edge = Math.max(opts.soft ?? 1, 1 / scale);
    const pad = edge * 2 + 2;
    const [ax, ay] = this.toPx(box[0] - pad, box[1] - pad);
    const [bx, by] = this.toPx(box[2] + pad, box[3] + pad);
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx)));
    const x1 = Math.min(this.width - 1, Math.ceil(Math.max(ax, bx)));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by)));
    const y1 = Math.min(this.height - 1, Math.ceil(Math.max(ay, by)));
    if (x0 > x1 || y0 > y1) return;
    const { data, width } = this;
    const solid = typeof paint === "function" ? null : paint;
    const paintFn = typeof paint === "function" ? paint : null;
    const cx0 = this.width / 2 + offsetX;
    const cy0 = this.height / 2 + offsetY;
    const dxOf = (px: number): number => {
      const x = (px - cx0) / scale + W / 2;
      return mirror ? W - x : x;
    };
    const dyOf = (py: number): number => (py - cy0) / scale + H / 2;
    const T = 8;
    // Half-diagonal of a tile in design units, with a margin for approximate distance functions.
    const tileR = ((T * Math.SQRT2) / 2 / scale) * 1.5;
    for (let ty = y0; ty <= y1; ty += T) {
      const ty1 = Math.min(y1, ty + T - 1);
      for (let tx = x0; tx <= x1; tx += T) {
        const tx1 = Math.min(x1, tx + T - 1);
        const dc = sdf(dxOf((tx + tx1 + 1) / 2), dyOf((ty + ty1 + 1) / 2));
        if (dc - tileR >= edge / 2) continue; // the whole tile is outside
        const inside = dc + tileR <= -edge / 2; // the whole tile is fully covered
        for (let py = ty; py <= ty1; py++) {
          const y = dyOf(py + 0.5);
          for (let px = tx; px <= tx1; px++) {
            const x = dxOf(px + 0.5);
            let a = alpha;
            if (!inside) {
              let cov = 0.5 - sdf(x, y) / edge;
              if (cov <= 0) continue;
              if (cov > 1) cov = 1;
              a *= cov;
            }
            const c = solid ?? paintFn!(x, y);
            const i = (py * width + px) * 4;
            data[i] += (c[0] - data[i]) * a;
            data[i + 1] += (c[1] - data[i + 1]) * a;
            data[i + 2] += (c[2] - data[i + 2]) * a;
          }
        }
      }
    }
  }

  /** RGBA bytes for an encoder (a view, no copy). */
  toRGBA(): Buffer {
    return Buffer.from(this.data.buffer, this.data.byteOffset, this.data.byteLength);
  }
}

/** Paint that is lighter at the top of a box and darker at the bottom: a cheap sense of volume. */
export function shaded(base: RGB, box: Box, amount = 0.22): (x: number, y: number) => RGB {
  const h = box[3] - box[1] || 1;
  const top = lighten(base, amount);
  const bottom = darken(base, amount * 0.8);
  // A lookup table: no allocation per pixel.
  const steps = 64;
  const lut: RGB[] = [];
  for (let k = 0; k <= steps; k++) {
    const t = k / steps;
    lut.push(t < 0.5 ? mix(top, base, t * 2) : mix(base, bottom, (t - 0.5) * 2));
  }
  return (_x, y) => {
    const t = (y - box[1]) / h;
    return lut[t <= 0 ? 0 : t >= 1 ? steps : Math.round(t * steps)];
  };
}
