// Creative toys, books and electronics: the drawings of their demo photos.
import { type RGB, darken, hex, lighten, mix } from "./raster";
import { C, CAP, CLIP, E, type Draw, POLY, RING, ROT, RR, TOY, U, eye } from "./painter";

export const CREATIVE_MOTIFS = {
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
} satisfies Record<string, Draw>;
