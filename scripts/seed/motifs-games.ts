// Building bricks, puzzles and games: the drawings of their demo photos.
import { type RGB, darken, hex, lighten, shaded } from "./raster";
import { ARC, C, CAP, CLIP, CUT, E, GROW, type Draw, POLY, type Shape, ROT, RR, TOY, U } from "./painter";

export const GAME_MOTIFS = {
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
} satisfies Record<string, Draw>;
