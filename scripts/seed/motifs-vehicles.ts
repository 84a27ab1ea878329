// Vehicles, sport and outdoor toys: the drawings of their demo photos.
import { darken, hex, lighten, mix } from "./raster";
import { ARC, C, CAP, CLIP, E, GROW, type Draw, POLY, type Shape, RING, ROT, RR, STAR, TOY, eye, wheel } from "./painter";

export const VEHICLE_MOTIFS = {
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
} satisfies Record<string, Draw>;
