// Demo listing photos, drawn by code: a toy illustration on a soft "product photo" backdrop (wall,
// table, bokeh, floor shadow), encoded as 800×600 JPEG. Deterministic for a given spec. Nothing is
// downloaded and no binary is committed.
import jpeg from "jpeg-js";
import {
  type Box,
  type Paint,
  type RGB,
  type Sdf,
  Canvas,
  H,
  W,
  arc,
  capsule,
  circle,
  darken,
  ellipse,
  hashString,
  hex,
  intersect,
  lighten,
  mix,
  polygon,
  ring,
  rng,
  rotate,
  rotateBox,
  roundRect,
  shaded,
  subtract,
  union,
} from "./raster";

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

const BACKDROPS: { top: string; bottom: string; table: string; tableEdge: string }[] = [
  { top: "#eef8f3", bottom: "#cfeee0", table: "#f6eee3", tableEdge: "#e6d8c4" }, // mint
  { top: "#fff4ea", bottom: "#ffd9c2", table: "#f7f1ea", tableEdge: "#e9dccd" }, // peach
  { top: "#f4f0ff", bottom: "#ddd3fb", table: "#f2edf7", tableEdge: "#ddd3e8" }, // lavender
  { top: "#eef7ff", bottom: "#cde4fa", table: "#f4efe8", tableEdge: "#e2d7c9" }, // sky
  { top: "#fffcea", bottom: "#f9ecbc", table: "#f1e6d3", tableEdge: "#dfcfb4" }, // butter
  { top: "#fff3f5", bottom: "#f9d3dc", table: "#f6eeea", tableEdge: "#e6d6cf" }, // rose
  { top: "#f1f5ea", bottom: "#d8e5c6", table: "#eee6d8", tableEdge: "#dacdb6" }, // sage
];

// ---- shapes with bounding boxes -------------------------------------------------------------

interface Shape {
  sdf: Sdf;
  box: Box;
}
const C = (cx: number, cy: number, r: number): Shape => ({ sdf: circle(cx, cy, r), box: [cx - r, cy - r, cx + r, cy + r] });
const E = (cx: number, cy: number, rx: number, ry: number): Shape => ({
  sdf: ellipse(cx, cy, rx, ry),
  box: [cx - rx, cy - ry, cx + rx, cy + ry],
});
const RR = (x0: number, y0: number, x1: number, y1: number, r: number): Shape => ({
  sdf: roundRect(x0, y0, x1, y1, Math.min(r, (x1 - x0) / 2, (y1 - y0) / 2)),
  box: [x0, y0, x1, y1],
});
const CAP = (ax: number, ay: number, bx: number, by: number, r: number): Shape => ({
  sdf: capsule(ax, ay, bx, by, r),
  box: [Math.min(ax, bx) - r, Math.min(ay, by) - r, Math.max(ax, bx) + r, Math.max(ay, by) + r],
});
const POLY = (pts: [number, number][], round = 0): Shape => {
  const p = polygon(pts);
  const xs = pts.map((q) => q[0]);
  const ys = pts.map((q) => q[1]);
  return {
    sdf: round ? (x, y) => p(x, y) - round : p,
    box: [Math.min(...xs) - round, Math.min(...ys) - round, Math.max(...xs) + round, Math.max(...ys) + round],
  };
};
const RING = (cx: number, cy: number, r: number, t: number): Shape => ({
  sdf: ring(cx, cy, r, t),
  box: [cx - r - t, cy - r - t, cx + r + t, cy + r + t],
});
const ARC = (cx: number, cy: number, r: number, a0: number, a1: number, t: number): Shape => ({
  sdf: arc(cx, cy, r, a0, a1, t),
  box: [cx - r - t, cy - r - t, cx + r + t, cy + r + t],
});
const STAR = (cx: number, cy: number, ro: number, ri: number, n = 5, rot = -Math.PI / 2): Shape => {
  const pts: [number, number][] = [];
  for (let i = 0; i < n * 2; i++) {
    const a = rot + (i * Math.PI) / n;
    const r = i % 2 === 0 ? ro : ri;
    pts.push([cx + Math.cos(a) * r, cy + Math.sin(a) * r]);
  }
  return POLY(pts, 2);
};
const U = (...s: Shape[]): Shape => ({
  sdf: union(...s.map((q) => q.sdf)),
  box: [
    Math.min(...s.map((q) => q.box[0])),
    Math.min(...s.map((q) => q.box[1])),
    Math.max(...s.map((q) => q.box[2])),
    Math.max(...s.map((q) => q.box[3])),
  ],
});
const CUT = (a: Shape, b: Shape): Shape => ({ sdf: subtract(a.sdf, b.sdf), box: a.box });
const CLIP = (a: Shape, b: Shape): Shape => ({ sdf: intersect(a.sdf, b.sdf), box: a.box });
const ROT = (s: Shape, cx: number, cy: number, a: number): Shape => ({
  sdf: rotate(s.sdf, cx, cy, a),
  box: rotateBox(s.box, cx, cy, a),
});
const GROW = (s: Shape, by: number): Shape => ({
  sdf: (x, y) => s.sdf(x, y) - by,
  box: [s.box[0] - by, s.box[1] - by, s.box[2] + by, s.box[3] + by],
});

// ---- drawing helpers --------------------------------------------------------------------------

class Painter {
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

type Draw = (p: Painter, main: RGB) => void;

const eye = (p: Painter, x: number, y: number, r: number): void => {
  p.fill(C(x, y, r), TOY.dark);
  p.fill(C(x - r * 0.35, y - r * 0.35, r * 0.35), [255, 255, 255]);
};

const wheel = (p: Painter, x: number, y: number, r: number, hub: RGB = TOY.grey): void => {
  p.fill(C(x, y, r + 3), darken(TOY.dark, 0.3));
  p.fill(C(x, y, r), shaded(TOY.dark, [x - r, y - r, x + r, y + r], 0.3));
  p.part(C(x, y, r * 0.48), hub, 2);
  p.fill(C(x, y, r * 0.14), darken(hub, 0.4));
};

const DRAW: Record<Motif, Draw> = {
  bricks(p, main) {
    p.shadow(400, 470, 250);
    const colors = [main, TOY.yellow, TOY.blue, TOY.red, TOY.green, TOY.white].filter(
      (c, i, a) => a.findIndex((d) => d.join() === c.join()) === i,
    );
    const brick = (x: number, y: number, w: number, col: RGB) => {
      const studs = Math.round(w / 48);
      for (let i = 0; i < studs; i++) {
        const sx = x + (w / studs) * (i + 0.5);
        p.part(RR(sx - 15, y - 16, sx + 15, y + 4, 5), col, 3, 0.12);
        p.fill(E(sx, y - 15, 14, 4), lighten(col, 0.3));
      }
      p.part(RR(x, y, x + w, y + 66, 8), col);
      p.shine(CAP(x + 14, y + 14, x + w * 0.45, y + 14, 4), 0.3);
    };
    brick(200, 404, 192, colors[0]);
    brick(404, 404, 192, colors[1]);
    brick(250, 322, 144, colors[2]);
    brick(406, 322, 144, colors[3] ?? colors[0]);
    brick(328, 240, 144, colors[4] ?? colors[1]);
    // a loose 2×2 brick on the table
    const loose = colors[5] ?? colors[2];
    p.part(ROT(RR(600, 420, 680, 470, 7), 640, 445, 0.25), loose);
  },

  boat(p, main) {
    p.shadow(400, 470, 230);
    p.fill(E(400, 455, 240, 22), hex("#7cc6ee"), 0.8, 3);
    p.part(CAP(400, 140, 400, 330, 6), TOY.woodDark, 2);
    p.part(
      POLY(
        [
          [406, 150],
          [500, 200],
          [406, 250],
        ],
        3,
      ),
      TOY.white,
      2,
    );
    p.part(RR(320, 260, 470, 345, 14), TOY.white);
    p.fill(RR(340, 280, 380, 315, 8), TOY.glass);
    p.fill(RR(400, 280, 440, 315, 8), TOY.glass);
    // a Duplo-style figure standing on deck
    p.part(RR(258, 300, 302, 350, 10), TOY.red, 2);
    p.part(C(280, 280, 24), TOY.yellow, 2);
    eye(p, 272, 276, 4);
    eye(p, 288, 276, 4);
    p.fill(ARC(280, 284, 9, 0.2 * Math.PI, 0.8 * Math.PI, 3), TOY.dark);
    p.part(
      POLY(
        [
          [220, 340],
          [590, 340],
          [540, 440],
          [270, 440],
        ],
        12,
      ),
      main,
    );
    p.fill(CAP(250, 375, 565, 375, 7), lighten(main, 0.55));
    for (const x of [300, 360, 420, 480]) p.fill(C(x, 405, 10), lighten(main, 0.4));
  },

  car(p, main) {
    p.shadow(400, 468, 230);
    p.part(
      POLY(
        [
          [305, 330],
          [345, 250],
          [470, 250],
          [525, 330],
        ],
        16,
      ),
      main,
    );
    p.fill(
      POLY(
        [
          [330, 325],
          [357, 268],
          [400, 268],
          [400, 325],
        ],
        6,
      ),
      TOY.glass,
    );
    p.fill(
      POLY(
        [
          [414, 325],
          [414, 268],
          [458, 268],
          [495, 325],
        ],
        6,
      ),
      TOY.glass,
    );
    p.shine(CAP(345, 300, 365, 275, 5), 0.5);
    p.part(RR(200, 320, 600, 425, 38), main);
    p.fill(CAP(230, 360, 575, 360, 7), lighten(main, 0.55));
    p.fill(CAP(405, 335, 405, 405, 2), darken(main, 0.35));
    p.fill(E(585, 350, 10, 14), TOY.yellow);
    p.fill(E(212, 350, 8, 12), TOY.red);
    wheel(p, 295, 425, 48);
    wheel(p, 505, 425, 48);
  },

  train(p, main) {
    p.shadow(400, 470, 270);
    p.fill(CAP(120, 458, 680, 458, 5), TOY.woodDark, 0.9);
    // engine
    p.part(RR(380, 250, 500, 420, 14), main);
    p.fill(RR(402, 272, 478, 330, 10), TOY.glass);
    p.part(RR(370, 235, 510, 262, 10), darken(main, 0.2), 3);
    p.part(RR(500, 320, 640, 420, 18), main);
    p.part(RR(585, 260, 620, 322, 6), TOY.dark, 2);
    p.part(C(640, 395, 14), TOY.yellow, 2);
    // wagon
    p.part(RR(150, 320, 345, 420, 14), TOY.wood);
    p.fill(RR(165, 335, 330, 352, 6), TOY.woodDark, 0.5);
    p.part(C(210, 305, 28), TOY.red, 2);
    p.part(C(265, 300, 28), TOY.blue, 2);
    p.part(RR(285, 280, 330, 322, 6), TOY.yellow, 2);
    p.fill(CAP(345, 400, 380, 400, 5), TOY.dark);
    for (const x of [195, 300, 420, 480, 575]) wheel(p, x, 430, 26, TOY.red);
  },

  tractor(p, main) {
    p.shadow(420, 470, 230);
    p.part(RR(330, 300, 590, 390, 20), main);
    p.part(RR(290, 190, 440, 330, 16), main);
    p.fill(RR(310, 210, 420, 290, 10), TOY.glass);
    p.shine(CAP(325, 270, 350, 225, 5), 0.45);
    p.part(CAP(520, 300, 520, 230, 9), TOY.dark, 2);
    p.fill(RR(560, 330, 592, 360, 6), lighten(main, 0.5));
    wheel(p, 340, 405, 80, TOY.yellow);
    wheel(p, 535, 425, 52, TOY.yellow);
  },

  teddy(p, main) {
    const fur = p.pick([hex("#b9825a"), hex("#d9a066"), hex("#8d6e63"), hex("#c49a6c")]);
    const light = lighten(fur, 0.45);
    p.shadow(400, 480, 190);
    p.part(E(335, 455, 50, 34), fur);
    p.part(E(465, 455, 50, 34), fur);
    p.fill(E(335, 458, 28, 20), light);
    p.fill(E(465, 458, 28, 20), light);
    p.part(ROT(E(300, 370, 32, 62), 300, 370, 0.5), fur);
    p.part(ROT(E(500, 370, 32, 62), 500, 370, -0.5), fur);
    p.part(E(400, 385, 108, 96), fur);
    p.fill(E(400, 400, 64, 62), light);
    p.part(C(322, 168, 40), fur);
    p.part(C(478, 168, 40), fur);
    p.fill(C(322, 168, 22), light);
    p.fill(C(478, 168, 22), light);
    p.part(C(400, 245, 100), fur);
    p.fill(E(400, 280, 46, 36), light);
    p.fill(E(400, 262, 17, 12), TOY.dark);
    eye(p, 362, 232, 11);
    eye(p, 438, 232, 11);
    p.fill(ARC(400, 276, 20, 0.2 * Math.PI, 0.8 * Math.PI, 5), TOY.dark);
    p.fill(C(345, 278, 15), TOY.pink, 0.35, 6);
    p.fill(C(455, 278, 15), TOY.pink, 0.35, 6);
    p.part(
      POLY(
        [
          [400, 345],
          [352, 320],
          [352, 372],
        ],
        4,
      ),
      main,
      2,
    );
    p.part(
      POLY(
        [
          [400, 345],
          [448, 320],
          [448, 372],
        ],
        4,
      ),
      main,
      2,
    );
    p.part(C(400, 345, 14), main, 2);
  },

  doll(p, main) {
    const hair = p.pick([hex("#6b4226"), hex("#e3b04b"), hex("#2d1e14"), hex("#b5523b")]);
    p.shadow(400, 478, 170);
    p.part(C(300, 262, 36), hair);
    p.part(C(500, 262, 36), hair);
    p.part(STAR(292, 222, 22, 11, 4, 0), main, 2);
    p.part(STAR(508, 222, 22, 11, 4, 0), main, 2);
    p.part(C(400, 225, 104), hair);
    p.part(CAP(330, 360, 280, 440, 16), TOY.skin, 2);
    p.part(CAP(470, 360, 520, 440, 16), TOY.skin, 2);
    p.part(
      POLY(
        [
          [340, 330],
          [460, 330],
          [530, 465],
          [270, 465],
        ],
        16,
      ),
      main,
    );
    p.fill(CAP(300, 440, 500, 440, 6), lighten(main, 0.5));
    p.part(E(400, 332, 48, 16), TOY.white, 2);
    p.part(C(400, 245, 80), TOY.skin, 2);
    p.fill(CLIP(E(400, 178, 96, 50), C(400, 245, 84)), shaded(hair, [300, 128, 500, 228]));
    eye(p, 370, 248, 10);
    eye(p, 430, 248, 10);
    p.fill(C(352, 275, 15), TOY.pink, 0.4, 6);
    p.fill(C(448, 275, 15), TOY.pink, 0.4, 6);
    p.fill(ARC(400, 270, 18, 0.25 * Math.PI, 0.75 * Math.PI, 5), hex("#c0392b"));
  },

  dollhouse(p, main) {
    p.shadow(400, 472, 210);
    p.part(RR(470, 118, 512, 200, 6), hex("#a0413e")); // chimney
    p.part(
      POLY(
        [
          [215, 235],
          [400, 105],
          [585, 235],
        ],
        12,
      ),
      hex("#c0504d"),
    );
    p.part(RR(245, 225, 555, 465, 10), main);
    for (const [x, y] of [
      [275, 260],
      [445, 260],
      [275, 360],
    ]) {
      p.part(RR(x, y, x + 80, y + 70, 8), TOY.white, 3, 0.05);
      p.fill(RR(x + 8, y + 8, x + 72, y + 62, 5), TOY.glass);
      p.fill(CAP(x + 40, y + 8, x + 40, y + 62, 3), TOY.white);
      p.fill(CAP(x + 8, y + 35, x + 72, y + 35, 3), TOY.white);
      p.fill(RR(x - 4, y + 70, x + 84, y + 84, 5), TOY.green);
      for (const fx of [x + 10, x + 35, x + 60]) p.fill(C(fx + 5, y + 70, 7), TOY.pink);
    }
    p.part(RR(440, 350, 520, 465, 36), TOY.wood);
    p.fill(C(505, 410, 6), TOY.yellow);
  },

  puzzle(p, main) {
    p.shadow(400, 470, 230);
    const s = 140;
    const r = 24;
    const x0 = 262;
    const y0 = 178;
    const colors = [main, TOY.yellow, TOY.teal, TOY.pink].filter((c, i, a) => a.findIndex((d) => d.join() === c.join()) === i);
    while (colors.length < 4) colors.push(TOY.orange);
    const piece = (gx: number, gy: number, out: string, inn: string): Shape => {
      const x = x0 + gx * (s + 6);
      const y = y0 + gy * (s + 6);
      let sh = RR(x, y, x + s, y + s, 10);
      const at = (side: string): [number, number] =>
        side === "r" ? [x + s, y + s / 2] : side === "l" ? [x, y + s / 2] : side === "t" ? [x + s / 2, y] : [x + s / 2, y + s];
      for (const side of out) sh = U(sh, C(...at(side), r));
      for (const side of inn) sh = CUT(sh, C(...at(side), r + 3));
      return sh;
    };
    p.part(piece(0, 0, "r", "b"), colors[0]);
    p.part(piece(1, 0, "b", "l"), colors[1]);
    p.part(piece(0, 1, "t", "r"), colors[2]);
    const last = ROT(piece(1, 1, "l", "t"), x0 + 1.5 * (s + 6), y0 + 1.5 * (s + 6), 0.18);
    p.part(
      { sdf: (x, y) => last.sdf(x - 38, y - 22), box: [last.box[0] + 38, last.box[1] + 22, last.box[2] + 38, last.box[3] + 22] },
      colors[3],
    );
  },

  globe(p, main) {
    p.shadow(400, 472, 150);
    p.part(RR(320, 440, 480, 470, 12), TOY.woodDark);
    p.part(CAP(400, 400, 400, 440, 10), TOY.woodDark, 2);
    p.fill(ARC(400, 260, 165, 0.5 * Math.PI, 1.6 * Math.PI, 10), darken(main, 0.2));
    const globe = C(400, 260, 140);
    p.part(globe, hex("#3f8fd8"));
    for (const [x, y, rx, ry, a] of [
      [350, 200, 60, 40, 0.4],
      [460, 300, 55, 75, -0.3],
      [330, 320, 30, 22, 0.2],
      [455, 175, 35, 18, 0.1],
    ]) {
      p.fill(CLIP(ROT(E(x, y, rx, ry), x, y, a), globe), shaded(TOY.green, [x - rx, y - ry, x + rx, y + ry]));
    }
    p.shine(E(345, 190, 40, 25), 0.3);
  },

  dice(p, main) {
    p.shadow(400, 470, 230);
    const die = (cx: number, cy: number, a: number, col: RGB, pips: number) => {
      const body = ROT(RR(cx - 72, cy - 72, cx + 72, cy + 72, 26), cx, cy, a);
      p.part(body, col);
      const spots: [number, number][] =
        pips === 5
          ? [
              [-1, -1],
              [1, -1],
              [0, 0],
              [-1, 1],
              [1, 1],
            ]
          : pips === 3
            ? [
                [-1, -1],
                [0, 0],
                [1, 1],
              ]
            : [
                [-1, -1],
                [1, -1],
                [-1, 0],
                [1, 0],
                [-1, 1],
                [1, 1],
              ];
      const pipColor = col === TOY.white ? TOY.dark : TOY.white;
      for (const [u, v] of spots) {
        const x = cx + (u * Math.cos(a) - v * Math.sin(a)) * 38;
        const y = cy + (u * Math.sin(a) + v * Math.cos(a)) * 38;
        p.fill(C(x, y, 13), pipColor);
      }
    };
    die(300, 385, -0.22, TOY.white, 5);
    die(480, 380, 0.18, main, 3);
    // a game pawn
    p.part(
      POLY(
        [
          [590, 465],
          [650, 465],
          [632, 330],
          [608, 330],
        ],
        10,
      ),
      TOY.yellow,
    );
    p.part(C(620, 320, 30), TOY.yellow);
  },

  cards(p, main) {
    p.shadow(400, 470, 220);
    const colors = [TOY.red, TOY.blue, TOY.green, TOY.yellow];
    [-0.35, -0.1, 0.15, 0.4].forEach((a, i) => {
      const card = ROT(RR(330, 170, 470, 380, 16), 400, 430, a);
      p.part(card, TOY.white, 2, 0.06);
      const inner = ROT(RR(342, 182, 458, 368, 10), 400, 430, a);
      p.fill(inner, i === 3 ? main : colors[i]);
      const oval = ROT(ROT(E(400, 275, 38, 62), 400, 275, 0.5), 400, 430, a);
      p.fill(oval, TOY.white);
    });
    p.part(ROT(RR(520, 380, 600, 460, 16), 560, 420, 0.3), TOY.white);
    for (const [u, v] of [
      [-1, -1],
      [0, 0],
      [1, 1],
    ]) {
      const x = 560 + (u * Math.cos(0.3) - v * Math.sin(0.3)) * 20;
      const y = 420 + (u * Math.sin(0.3) + v * Math.cos(0.3)) * 20;
      p.fill(C(x, y, 7), TOY.dark);
    }
  },

  chess(p, main) {
    p.shadow(400, 472, 260, 22);
    const board = POLY(
      [
        [160, 455],
        [640, 455],
        [560, 300],
        [240, 300],
      ],
      6,
    );
    p.fill(GROW(board, 10), TOY.woodDark);
    p.fill(board, (x, y) => {
      const v = (y - 300) / 155; // 0 at the far edge, 1 near
      const left = 240 - 80 * v;
      const right = 560 + 80 * v;
      const u = (x - left) / (right - left);
      const row = Math.floor(v ** 0.85 * 8);
      const col = Math.floor(u * 8);
      return (row + col) % 2 === 0 ? hex("#f3dfbf") : hex("#8b5a2b");
    });
    const pawn = (x: number, y: number, s: number, col: RGB) => {
      p.part(RR(x - 30 * s, y - 18 * s, x + 30 * s, y, 8 * s), col, 2);
      p.part(
        POLY(
          [
            [x - 20 * s, y - 16 * s],
            [x + 20 * s, y - 16 * s],
            [x + 9 * s, y - 80 * s],
            [x - 9 * s, y - 80 * s],
          ],
          4,
        ),
        col,
        2,
      );
      p.part(E(x, y - 82 * s, 22 * s, 8 * s), col, 2);
      p.part(C(x, y - 104 * s, 22 * s), col, 2);
    };
    pawn(330, 360, 0.8, TOY.white);
    pawn(450, 350, 0.75, TOY.dark);
    pawn(290, 440, 1, TOY.white);
    pawn(520, 430, 1, main === TOY.white ? TOY.dark : darken(main, 0.2));
  },

  rings(p, main) {
    p.shadow(400, 478, 150);
    p.part(RR(290, 440, 510, 478, 14), TOY.wood);
    p.part(CAP(400, 180, 400, 440, 12), TOY.wood, 2);
    const widths = [230, 196, 162, 128, 96];
    const cols = [TOY.red, TOY.orange, TOY.yellow, TOY.green, TOY.blue];
    widths.forEach((w, i) => {
      const y = 440 - (i + 1) * 46;
      p.part(RR(400 - w / 2, y, 400 + w / 2, y + 46, 23), cols[i]);
      p.shine(CAP(400 - w / 2 + 22, y + 13, 400 - w / 6, y + 13, 5), 0.4);
    });
    p.part(C(400, 178, 32), main);
    p.shine(C(390, 166, 10), 0.5);
  },

  rattle(p, main) {
    p.shadow(400, 470, 170);
    p.part(ROT(CAP(400, 300, 400, 440, 20), 400, 300, 0.35), TOY.white);
    p.part(ROT(RING(400, 455, 34, 16), 400, 300, 0.35), TOY.yellow);
    const head = C(400, 225, 100);
    p.part(head, main);
    for (let i = -2; i <= 2; i++) {
      if (i % 2 === 0) continue;
      p.fill(CLIP(RR(400 + i * 40 - 20, 100, 400 + i * 40 + 20, 340, 0), head), lighten(main, 0.55));
    }
    p.shine(E(355, 180, 30, 18), 0.45);
    p.part(RING(560, 400, 48, 18), TOY.teal);
    p.part(C(560, 352, 16), TOY.pink, 2);
  },

  babygym(p, main) {
    p.shadow(400, 474, 270, 24);
    p.part(E(400, 455, 260, 26), lighten(main, 0.35), 3, 0.1);
    p.fill(ARC(400, 470, 240, Math.PI * 1.02, Math.PI * 1.98, 24), darken(TOY.wood, 0.05));
    p.fill(ARC(400, 470, 240, Math.PI * 1.02, Math.PI * 1.98, 14), TOY.wood);
    const hang = (x: number, y: number, toy: Shape, col: RGB) => {
      p.fill(CAP(x, 236 + Math.abs(x - 400) * 0.35, x, y, 2), TOY.grey);
      p.part(toy, col);
    };
    hang(300, 330, STAR(300, 345, 36, 16), TOY.yellow);
    hang(400, 300, C(400, 325, 30), TOY.red);
    hang(500, 330, STAR(500, 345, 34, 20, 6), TOY.teal);
    p.part(RING(400, 325, 30, 10), TOY.white, 0);
  },

  football(p) {
    p.shadow(400, 468, 150);
    const ball = C(400, 310, 150);
    p.fill(GROW(ball, 3), TOY.dark);
    p.fill(ball, (x, y) => {
      const d = Math.hypot(x - 350, y - 250) / 260;
      return mix([255, 255, 255], [160, 168, 178], Math.min(1, d * d * 1.4));
    });
    const pent = (cx: number, cy: number, r: number, a: number): Shape => {
      const pts: [number, number][] = [];
      for (let i = 0; i < 5; i++) pts.push([cx + Math.cos(a + (i * 2 * Math.PI) / 5) * r, cy + Math.sin(a + (i * 2 * Math.PI) / 5) * r]);
      return POLY(pts, 3);
    };
    p.fill(pent(400, 310, 46, -Math.PI / 2), TOY.dark);
    for (let i = 0; i < 5; i++) {
      const a = -Math.PI / 2 + (i * 2 * Math.PI) / 5;
      const x = 400 + Math.cos(a) * 128;
      const y = 310 + Math.sin(a) * 128;
      p.fill(CLIP(pent(x, y, 46, a + Math.PI), ball), TOY.dark);
      p.fill(CAP(400 + Math.cos(a) * 46, 310 + Math.sin(a) * 46, 400 + Math.cos(a) * 86, 310 + Math.sin(a) * 86, 2), TOY.grey);
    }
    p.shine(E(350, 235, 45, 24), 0.4);
  },

  beachball(p, main) {
    p.shadow(400, 468, 150);
    const ball = C(400, 310, 150);
    const cols = [main, TOY.white, TOY.yellow, TOY.white, TOY.blue, TOY.white];
    p.fill(GROW(ball, 3), darken(main, 0.5));
    p.fill(ball, (x, y) => {
      const a = Math.atan2(y - 250, x - 440) + Math.PI;
      const col = cols[Math.floor((a / (2 * Math.PI)) * 6) % 6];
      const d = Math.hypot(x - 360, y - 250) / 280;
      return darken(col, Math.min(0.45, d * d * 0.6));
    });
    p.fill(C(440, 250, 16), TOY.white);
    p.shine(E(345, 235, 40, 22), 0.45);
  },

  skis(p, main) {
    p.shadow(400, 470, 250);
    for (const dx of [0, 60]) {
      const ski = ROT(CAP(180 + dx, 400, 620 + dx, 400, 14), 400 + dx, 400, -0.35);
      p.part(ski, main);
      p.fill(ROT(CAP(200 + dx, 400, 600 + dx, 400, 3), 400 + dx, 400, -0.35), lighten(main, 0.6));
      p.part(ROT(RR(370 + dx, 380, 440 + dx, 412, 8), 400 + dx, 400, -0.35), TOY.dark, 2);
    }
    for (const x of [540, 585]) {
      p.part(CAP(x, 150, x - 30, 450, 5), TOY.grey, 2);
      p.part(CAP(x - 3, 150, x - 7, 200, 9), TOY.dark, 2);
      p.part(RING(x - 26, 415, 18, 5), TOY.dark, 0);
    }
  },

  skates(p, main) {
    p.shadow(400, 470, 220);
    p.part(CAP(250, 445, 560, 445, 7), TOY.grey, 2);
    p.part(CAP(300, 445, 300, 412, 8), TOY.grey, 2);
    p.part(CAP(500, 445, 500, 412, 8), TOY.grey, 2);
    const boot = POLY(
      [
        [275, 150],
        [400, 150],
        [405, 300],
        [545, 330],
        [560, 400],
        [265, 405],
      ],
      16,
    );
    p.part(boot, main);
    p.fill(RR(265, 385, 560, 412, 10), darken(main, 0.3));
    for (let y = 180; y < 300; y += 28) p.fill(CAP(330, y, 395, y + 8, 4), TOY.white);
    p.shine(CAP(290, 180, 290, 340, 8), 0.3);
  },

  tablet(p, main) {
    p.shadow(400, 470, 220);
    const a = -0.1;
    p.part(ROT(RR(225, 150, 575, 440, 46), 400, 295, a), main);
    const screen = ROT(RR(265, 185, 535, 405, 14), 400, 295, a);
    p.fill(screen, (_x, y) => mix(hex("#9ad9ff"), hex("#e8f7ff"), (y - 185) / 220));
    p.fill(CLIP(E(340, 410, 140, 70), screen), TOY.green);
    p.fill(CLIP(E(480, 420, 130, 80), screen), lighten(TOY.green, 0.2));
    p.fill(CLIP(C(475, 240, 30), screen), TOY.yellow);
    p.fill(CLIP(U(C(320, 240, 20), C(345, 232, 24), C(370, 242, 18)), screen), TOY.white);
    p.part(ROT(C(555, 295, 12), 400, 295, a), lighten(main, 0.4), 2);
  },

  walkie(p, main) {
    p.shadow(400, 470, 210);
    const unit = (cx: number, a: number, col: RGB) => {
      p.part(ROT(CAP(cx + 40, 200, cx + 40, 110, 9), cx, 330, a), TOY.dark, 2);
      p.part(ROT(RR(cx - 65, 190, cx + 65, 460, 26), cx, 330, a), col);
      p.fill(ROT(RR(cx - 45, 215, cx + 45, 275, 8), cx, 330, a), hex("#c9e8b0"));
      for (let i = 0; i < 4; i++) p.fill(ROT(CAP(cx - 40, 300 + i * 20, cx + 40, 300 + i * 20, 4), cx, 330, a), darken(col, 0.35));
      p.part(ROT(C(cx, 410, 16), cx, 330, a), TOY.yellow, 2);
    };
    unit(310, -0.12, main);
    unit(490, 0.1, TOY.yellow === main ? TOY.blue : TOY.yellow);
  },

  robot(p, main) {
    p.shadow(400, 476, 170);
    p.part(RR(325, 430, 385, 475, 10), TOY.grey);
    p.part(RR(415, 430, 475, 475, 10), TOY.grey);
    p.part(CAP(305, 300, 245, 390, 18), TOY.grey);
    p.part(CAP(495, 300, 555, 390, 18), TOY.grey);
    p.part(C(240, 400, 24), main, 2);
    p.part(C(560, 400, 24), main, 2);
    p.part(RR(295, 265, 505, 440, 30), main);
    p.part(RR(335, 295, 465, 395, 14), lighten(main, 0.55), 2);
    p.fill(C(365, 345, 14), TOY.red);
    p.fill(C(400, 345, 14), TOY.yellow);
    p.fill(C(435, 345, 14), TOY.green);
    p.part(RR(380, 245, 420, 272, 6), TOY.grey, 2);
    p.part(CAP(400, 140, 400, 92, 4), TOY.grey, 2);
    p.part(C(400, 86, 14), TOY.red, 2);
    p.part(RR(310, 135, 490, 250, 28), TOY.grey);
    p.fill(C(360, 188, 24), hex("#1b2b3a"));
    p.fill(C(440, 188, 24), hex("#1b2b3a"));
    p.fill(C(360, 188, 14), hex("#6ff0ff"));
    p.fill(C(440, 188, 14), hex("#6ff0ff"));
    p.fill(RR(365, 222, 435, 236, 6), hex("#1b2b3a"));
    p.shine(CAP(330, 150, 380, 150, 5), 0.45);
  },

  crayons(p, main) {
    p.shadow(400, 470, 200);
    const cols = [TOY.red, TOY.orange, TOY.yellow, TOY.green, TOY.blue, TOY.purple, main];
    cols.forEach((col, i) => {
      const a = -0.62 + (i * 1.24) / (cols.length - 1);
      const body = RR(383, 200, 417, 450, 6);
      const tip = POLY(
        [
          [385, 202],
          [415, 202],
          [404, 140],
          [396, 140],
        ],
        3,
      );
      const label = RR(380, 250, 420, 390, 4);
      p.part(ROT(tip, 400, 470, a), col, 2);
      p.part(ROT(body, 400, 470, a), col, 2);
      p.fill(ROT(label, 400, 470, a), darken(col, 0.18));
      p.fill(ROT(CAP(386, 270, 414, 270, 2), 400, 470, a), lighten(col, 0.6));
      p.fill(ROT(CAP(386, 370, 414, 370, 2), 400, 470, a), lighten(col, 0.6));
    });
  },

  pegboard(p, main) {
    p.shadow(400, 470, 210);
    const board = ROT(RR(255, 175, 545, 465, 24), 400, 320, -0.06);
    p.part(board, lighten(main, 0.55), 3, 0.08);
    for (let gy = 0; gy < 11; gy++) {
      for (let gx = 0; gx < 11; gx++) {
        const u = (gx - 5) / 4.2;
        const v = (5 - gy) / 4.2 + 0.25;
        const heart = (u * u + v * v - 1) ** 3 - u * u * v * v * v <= 0;
        const x = 285 + gx * 23;
        const y = 205 + gy * 23;
        const [rx, ry] = [
          400 + (x - 400) * Math.cos(-0.06) - (y - 320) * Math.sin(-0.06),
          320 + (x - 400) * Math.sin(-0.06) + (y - 320) * Math.cos(-0.06),
        ];
        if (heart) p.fill(RING(rx, ry, 7, 7), gy < 4 ? TOY.pink : TOY.red);
        else p.fill(C(rx, ry, 3), darken(main, 0.1), 0.5);
      }
    }
    for (const [x, y, col] of [
      [590, 430, TOY.yellow],
      [612, 446, TOY.blue],
      [575, 455, TOY.green],
    ] as const) {
      p.part(RING(x, y, 8, 8), col, 0);
    }
  },

  easel(p, main) {
    p.shadow(400, 476, 170);
    p.part(CAP(300, 470, 375, 130, 10), TOY.wood, 2);
    p.part(CAP(500, 470, 425, 130, 10), TOY.wood, 2);
    p.part(RR(285, 150, 515, 345, 12), TOY.white, 4, 0.05);
    p.fill(C(460, 200, 28), TOY.yellow);
    p.fill(
      POLY(
        [
          [330, 320],
          [390, 255],
          [450, 320],
        ],
        4,
      ),
      main,
    );
    p.fill(RR(355, 290, 425, 325, 4), darken(main, 0.15));
    p.fill(E(400, 330, 115, 12), TOY.green);
    p.part(RR(280, 350, 520, 370, 8), TOY.woodDark, 2);
    p.part(CAP(290, 345, 330, 345, 6), TOY.red, 1);
    p.part(CAP(340, 345, 380, 345, 6), TOY.blue, 1);
  },

  bucket(p, main) {
    p.shadow(400, 470, 230);
    p.fill(E(250, 455, 110, 36), hex("#f1d9a6"), 1, 4);
    p.fill(E(250, 445, 70, 22), hex("#f7e6bf"), 1, 6);
    p.fill(ARC(400, 300, 88, Math.PI, 2 * Math.PI, 10), TOY.grey);
    p.part(
      POLY(
        [
          [318, 300],
          [482, 300],
          [460, 460],
          [340, 460],
        ],
        10,
      ),
      main,
    );
    p.part(RR(305, 288, 495, 318, 12), darken(main, 0.1));
    p.part(STAR(400, 385, 40, 18), TOY.white, 0);
    p.part(CAP(520, 190, 560, 390, 9), TOY.yellow);
    p.part(
      POLY(
        [
          [532, 380],
          [592, 368],
          [608, 450],
          [560, 478],
          [530, 456],
        ],
        10,
      ),
      TOY.yellow,
    );
  },

  scooter(p, main) {
    p.shadow(400, 480, 240);
    p.part(CAP(245, 440, 520, 440, 15), main);
    p.fill(CAP(265, 434, 505, 434, 4), darken(main, 0.3));
    p.part(CAP(540, 440, 495, 180, 10), TOY.grey);
    p.part(CAP(445, 176, 545, 186, 8), TOY.grey);
    p.part(CAP(440, 176, 465, 178, 12), TOY.dark, 2);
    p.part(CAP(530, 184, 555, 186, 12), TOY.dark, 2);
    wheel(p, 245, 456, 30, main);
    wheel(p, 548, 456, 30, main);
  },

  tricycle(p, main) {
    p.shadow(400, 478, 230);
    p.part(CAP(290, 420, 470, 330, 12), main);
    p.part(CAP(470, 330, 520, 440, 10), TOY.grey);
    p.part(CAP(470, 330, 455, 245, 10), TOY.grey);
    p.part(CAP(415, 240, 495, 245, 8), TOY.grey);
    p.part(CAP(410, 240, 428, 240, 12), TOY.dark, 2);
    p.part(E(355, 330, 48, 16), TOY.dark, 2);
    p.part(CAP(355, 345, 330, 400, 8), TOY.grey);
    wheel(p, 270, 440, 36, main);
    wheel(p, 330, 445, 32, main);
    wheel(p, 520, 420, 56, main);
  },

  books(p, main) {
    p.shadow(400, 472, 240);
    const book = (x0: number, y0: number, x1: number, y1: number, a: number, col: RGB) => {
      const cx = (x0 + x1) / 2;
      const cy = (y0 + y1) / 2;
      p.part(ROT(RR(x0, y0, x1, y1, 8), cx, cy, a), col);
      p.fill(ROT(RR(x1 - 26, y0 + 7, x1 - 4, y1 - 7, 3), cx, cy, a), hex("#fbf6e9"));
      p.fill(ROT(CAP(x0 + 20, y0 + 12, x0 + 20, y1 - 12, 4), cx, cy, a), lighten(col, 0.45));
    };
    book(250, 410, 560, 465, 0, TOY.blue);
    book(270, 355, 545, 410, 0.03, main);
    book(240, 300, 530, 355, -0.04, TOY.green);
    // a little dinosaur on top
    const g = TOY.green === main ? TOY.orange : hex("#5cbf7a");
    p.part(
      POLY(
        [
          [305, 265],
          [250, 288],
          [320, 288],
        ],
        6,
      ),
      g,
    );
    p.part(E(370, 255, 70, 40), g);
    p.part(CAP(420, 240, 455, 175, 18), g);
    p.part(E(470, 168, 34, 24), g);
    p.part(CAP(345, 280, 345, 298, 12), g, 2);
    p.part(CAP(395, 280, 395, 298, 12), g, 2);
    for (const [x, y] of [
      [330, 218],
      [362, 210],
      [394, 214],
    ])
      p.part(
        POLY(
          [
            [x - 12, y + 8],
            [x + 12, y + 8],
            [x, y - 12],
          ],
          3,
        ),
        TOY.yellow,
        2,
      );
    eye(p, 478, 160, 6);
  },

  crown(p, main) {
    p.shadow(400, 472, 230);
    // a wooden sword leaning behind the crown
    p.part(
      POLY(
        [
          [500, 415],
          [522, 425],
          [628, 190],
          [618, 160],
          [600, 178],
        ],
        6,
      ),
      TOY.grey,
    );
    p.part(CAP(470, 400, 545, 440, 11), TOY.woodDark);
    p.part(CAP(505, 420, 480, 475, 10), TOY.wood);
    const crown = POLY(
      [
        [210, 430],
        [430, 430],
        [450, 270],
        [385, 335],
        [320, 240],
        [255, 335],
        [190, 270],
      ],
      10,
    );
    p.part(crown, TOY.yellow);
    p.part(RR(200, 400, 440, 440, 10), darken(TOY.yellow, 0.08));
    for (const [x, y, col] of [
      [245, 420, main],
      [320, 420, TOY.teal],
      [395, 420, main],
    ] as const)
      p.part(C(x, y, 12), col, 2);
    for (const [x, y] of [
      [190, 262],
      [320, 230],
      [450, 262],
    ])
      p.part(C(x, y, 13), TOY.white, 2);
  },
};

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
