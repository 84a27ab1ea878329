// Soft toys, dolls, dress-up and baby toys: the drawings of their demo photos.
import { type RGB, darken, hex, lighten, shaded } from "./raster";
import { ARC, C, CAP, CLIP, E, type Draw, POLY, type Shape, RING, ROT, RR, STAR, TOY, eye } from "./painter";

export const DOLL_MOTIFS = {
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
} satisfies Record<string, Draw>;
