import { hashString, mix32, Rng } from './prng.js';
import {
  addGlow,
  clamp01,
  createRaster,
  drawLine,
  fillBelowCurve,
  fillCircle,
  fillEllipse,
  fillPolygon,
  fillRect,
  fillVerticalGradient,
  mixRgb,
  type Raster,
  type Rgb,
  scaleRgb,
} from './raster.js';
import type { ColorId, Scene, SubjectId } from './scene.js';

/**
 * Paints the target picture of a scene: the image the diffusion-like loop converges to.
 * Every element draws with a random stream of its own (seed × element name), so removing one element
 * leaves the others exactly where they were.
 */

const COLORS: Record<ColorId, Rgb> = {
  red: [0.86, 0.16, 0.14],
  orange: [0.96, 0.55, 0.15],
  yellow: [0.98, 0.85, 0.22],
  gold: [0.86, 0.68, 0.24],
  green: [0.22, 0.64, 0.3],
  cyan: [0.1, 0.72, 0.76],
  blue: [0.16, 0.36, 0.86],
  purple: [0.56, 0.26, 0.76],
  pink: [0.96, 0.56, 0.7],
  white: [0.95, 0.95, 0.93],
  black: [0.08, 0.08, 0.1],
  brown: [0.5, 0.32, 0.18],
  silver: [0.76, 0.78, 0.82],
  monochrome: [0.5, 0.5, 0.5],
};

export type Palette = { skyTop: Rgb; skyBottom: Rgb; accent: Rgb; accent2: Rgb; dark: Rgb; light: Rgb };

const BASE_PALETTES: Palette[] = [
  {
    skyTop: [0.32, 0.58, 0.9],
    skyBottom: [0.82, 0.9, 0.97],
    accent: [0.9, 0.38, 0.35],
    accent2: [0.3, 0.6, 0.4],
    dark: [0.14, 0.2, 0.3],
    light: [0.98, 0.96, 0.9],
  },
  {
    skyTop: [0.96, 0.66, 0.46],
    skyBottom: [0.99, 0.9, 0.72],
    accent: [0.7, 0.24, 0.32],
    accent2: [0.36, 0.5, 0.3],
    dark: [0.28, 0.16, 0.2],
    light: [1, 0.96, 0.86],
  },
  {
    skyTop: [0.5, 0.72, 0.7],
    skyBottom: [0.9, 0.94, 0.86],
    accent: [0.95, 0.62, 0.2],
    accent2: [0.2, 0.46, 0.44],
    dark: [0.1, 0.22, 0.24],
    light: [0.98, 0.97, 0.9],
  },
  {
    skyTop: [0.6, 0.55, 0.85],
    skyBottom: [0.96, 0.84, 0.9],
    accent: [0.3, 0.4, 0.8],
    accent2: [0.62, 0.5, 0.72],
    dark: [0.2, 0.16, 0.32],
    light: [1, 0.95, 0.98],
  },
];

const STYLE_PALETTES: Partial<Record<string, Palette>> = {
  cyberpunk: {
    skyTop: [0.04, 0.02, 0.12],
    skyBottom: [0.5, 0.06, 0.42],
    accent: [1, 0.2, 0.78],
    accent2: [0.1, 0.92, 1],
    dark: [0.04, 0.03, 0.1],
    light: [0.9, 0.95, 1],
  },
  gongbi: {
    skyTop: [0.9, 0.82, 0.64],
    skyBottom: [0.95, 0.9, 0.76],
    accent: [0.8, 0.2, 0.14],
    accent2: [0.18, 0.52, 0.44],
    dark: [0.22, 0.16, 0.12],
    light: [0.98, 0.95, 0.86],
  },
  ink: {
    skyTop: [0.9, 0.9, 0.88],
    skyBottom: [0.97, 0.96, 0.93],
    accent: [0.25, 0.25, 0.25],
    accent2: [0.45, 0.45, 0.45],
    dark: [0.06, 0.06, 0.07],
    light: [0.98, 0.97, 0.94],
  },
  anime: {
    skyTop: [0.3, 0.62, 1],
    skyBottom: [0.8, 0.92, 1],
    accent: [0.98, 0.5, 0.62],
    accent2: [0.38, 0.76, 0.46],
    dark: [0.16, 0.18, 0.32],
    light: [1, 0.98, 0.96],
  },
};

const lighten = (c: Rgb, t: number): Rgb => mixRgb(c, [1, 1, 1], t);
const darken = (c: Rgb, t: number): Rgb => mixRgb(c, [0, 0, 0], t);

export function buildPalette(scene: Scene, seed: number): Palette {
  const rng = new Rng(mix32(seed, hashString('palette')));
  const styled = scene.style ? STYLE_PALETTES[scene.style] : undefined;
  let palette: Palette = { ...(styled ?? rng.pick(BASE_PALETTES)) };
  const words = (Object.entries(scene.colors) as [ColorId, number][])
    .filter(([id]) => id !== 'monochrome')
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (words.length) {
    const [firstId, firstWeight] = words[0]!;
    const first = COLORS[firstId];
    const second = words[1] ? COLORS[words[1][0]] : mixRgb(first, palette.accent2, 0.5);
    const k = clamp01(0.45 * firstWeight);
    palette = {
      skyTop: mixRgb(palette.skyTop, darken(first, 0.15), k),
      skyBottom: mixRgb(palette.skyBottom, lighten(first, 0.6), k),
      accent: mixRgb(palette.accent, first, clamp01(0.9 * firstWeight)),
      accent2: mixRgb(palette.accent2, second, clamp01(0.8 * (words[1]?.[1] ?? 0.6))),
      dark: mixRgb(palette.dark, darken(first, 0.75), 0.4),
      light: palette.light,
    };
  }
  const night = scene.moods.night ?? 0;
  if (night > 0) {
    const k = clamp01(night);
    palette.skyTop = mixRgb(palette.skyTop, [0.02, 0.03, 0.1], k);
    palette.skyBottom = mixRgb(palette.skyBottom, [0.1, 0.12, 0.28], k);
    palette.accent2 = mixRgb(palette.accent2, darken(palette.accent2, 0.5), k);
  }
  const sunset = scene.moods.sunset ?? 0;
  if (sunset > 0) {
    const k = clamp01(sunset);
    palette.skyTop = mixRgb(palette.skyTop, [0.36, 0.2, 0.48], k);
    palette.skyBottom = mixRgb(palette.skyBottom, [0.99, 0.58, 0.28], k);
  }
  return palette;
}

type Ctx = {
  raster: Raster;
  scene: Scene;
  palette: Palette;
  seed: number;
  w: number;
  h: number;
  /** min(w, h): sizes scale with it. */
  u: number;
  horizon: number;
  rngFor: (name: string) => Rng;
  weight: (id: SubjectId) => number;
  size: (id: SubjectId) => number;
};

/** 1-D fractal value noise across the width: ridge lines and wave crests. */
function fractalLine(rng: Rng, width: number, octaves: number, roughness: number): Float32Array {
  const out = new Float32Array(width);
  let amplitude = 1;
  let cells = 3;
  for (let o = 0; o < octaves; o++) {
    const lattice = Array.from({ length: cells + 2 }, () => rng.range(-1, 1));
    for (let x = 0; x < width; x++) {
      const f = (x / width) * cells;
      const i = Math.floor(f);
      const t = f - i;
      const s = t * t * (3 - 2 * t);
      out[x] = out[x]! + amplitude * (lattice[i]! + (lattice[i + 1]! - lattice[i]!) * s);
    }
    amplitude *= roughness;
    cells *= 2;
  }
  return out;
}

function paintSky(ctx: Ctx): void {
  const { palette } = ctx;
  fillVerticalGradient(ctx.raster, [
    { at: 0, color: palette.skyTop },
    { at: ctx.horizon / ctx.h, color: palette.skyBottom },
    { at: 1, color: mixRgb(palette.skyBottom, palette.dark, 0.3) },
  ]);
}

function paintStars(ctx: Ctx): void {
  const strength = Math.max(ctx.weight('star'), (ctx.scene.moods.night ?? 0) * 0.6);
  if (strength <= 0) return;
  const rng = ctx.rngFor('star');
  const count = Math.round(ctx.w * ctx.h * 0.0008 * strength);
  for (let i = 0; i < count; i++) {
    const x = rng.range(0, ctx.w);
    const y = rng.range(0, ctx.horizon * 0.9);
    const big = rng.next() < 0.08;
    fillCircle(ctx.raster, x, y, big ? 1.6 : 0.7, [1, 1, 0.95], rng.range(0.5, 1));
    if (big) addGlow(ctx.raster, x, y, ctx.u * 0.025, [0.6, 0.7, 1], 0.5);
  }
}

function paintSunOrMoon(ctx: Ctx, id: 'sun' | 'moon'): void {
  const weight = ctx.weight(id);
  if (weight <= 0) return;
  const rng = ctx.rngFor(id);
  const r = ctx.u * 0.07 * ctx.size(id);
  const x = ctx.w * rng.range(0.18, 0.82);
  const y = ctx.horizon * rng.range(0.2, 0.5);
  if (id === 'moon') {
    addGlow(ctx.raster, x, y, r * 4, [0.55, 0.6, 0.75], 0.5);
    if (ctx.scene.style === 'ink' || ctx.scene.style === 'gongbi')
      fillCircle(ctx.raster, x, y, r * 1.6, [0.55, 0.55, 0.55], 0.35, r);
    fillCircle(ctx.raster, x, y, r, [0.97, 0.95, 0.82]);
    for (let i = 0; i < 4; i++) {
      fillCircle(
        ctx.raster,
        x + rng.range(-0.5, 0.5) * r,
        y + rng.range(-0.5, 0.5) * r,
        r * rng.range(0.1, 0.2),
        [0.86, 0.84, 0.72],
      );
    }
  } else {
    addGlow(ctx.raster, x, y, r * 5, [0.9, 0.55, 0.2], 0.6);
    fillCircle(ctx.raster, x, y, r, [1, 0.86, 0.45]);
  }
}

function paintClouds(ctx: Ctx): void {
  const weight = ctx.weight('cloud');
  if (weight <= 0) return;
  const rng = ctx.rngFor('cloud');
  const count = Math.round(2 + 2 * weight);
  const color = lighten(ctx.palette.skyBottom, 0.7);
  for (let c = 0; c < count; c++) {
    const cx = rng.range(0, ctx.w);
    const cy = rng.range(ctx.horizon * 0.12, ctx.horizon * 0.7);
    const s = ctx.u * rng.range(0.05, 0.09) * ctx.size('cloud');
    for (let i = 0; i < 7; i++) {
      fillCircle(
        ctx.raster,
        cx + rng.range(-2.2, 2.2) * s,
        cy + rng.range(-0.4, 0.4) * s,
        s * rng.range(0.6, 1.1),
        color,
        0.75,
        3,
      );
    }
  }
}

function paintMountains(ctx: Ctx): void {
  const weight = ctx.weight('mountain');
  if (weight <= 0) return;
  const rng = ctx.rngFor('mountain');
  const layers = Math.min(4, 2 + Math.round(weight));
  const snow = ctx.weight('snow') > 0;
  for (let k = 0; k < layers; k++) {
    const depth = 1 - k / layers;
    const line = fractalLine(rng, ctx.w, 5, 0.5);
    const peak = ctx.h * (0.16 + 0.1 * depth) * ctx.size('mountain');
    const base = ctx.horizon - ctx.h * 0.02 * k;
    const heights = new Float32Array(ctx.w);
    for (let x = 0; x < ctx.w; x++) heights[x] = base - peak * (0.55 + 0.45 * line[x]!) - ctx.h * 0.04 * depth;
    const color = mixRgb(mixRgb(ctx.palette.dark, ctx.palette.accent2, 0.35), ctx.palette.skyBottom, 0.65 * depth);
    fillBelowCurve(
      ctx.raster,
      heights,
      (_x, y) => mixRgb(color, ctx.palette.skyBottom, clamp01((y - base) / ctx.h) * 0.3),
      1,
    );
    if (snow) {
      const caps = new Float32Array(heights);
      fillBelowCurve(ctx.raster, caps, (x, y) => (y < heights[x]! + peak * 0.12 ? [0.96, 0.97, 1] : color), 0.9);
    }
  }
}

function paintCity(ctx: Ctx): void {
  const weight = ctx.weight('city');
  if (weight <= 0) return;
  const rng = ctx.rngFor('city');
  const neon = ctx.scene.style === 'cyberpunk';
  const body = mixRgb(ctx.palette.dark, ctx.palette.skyTop, 0.25);
  let x = -rng.range(0, ctx.u * 0.05);
  while (x < ctx.w) {
    const bw = ctx.u * rng.range(0.05, 0.12);
    const bh = ctx.h * rng.range(0.12, 0.42) * ctx.size('city');
    const top = ctx.horizon - bh;
    const shade = rng.range(-0.08, 0.08);
    fillRect(ctx.raster, x, top, bw, bh + 2, scaleRgb(body, 1 + shade));
    if (rng.next() < 0.3) drawLine(ctx.raster, x + bw / 2, top, x + bw / 2, top - bh * 0.15, 2, body);
    const win = Math.max(2, ctx.u * 0.008);
    const lit: Rgb = neon ? rng.pick([ctx.palette.accent, ctx.palette.accent2]) : [1, 0.84, 0.45];
    for (let wy = top + win * 2; wy < ctx.horizon - win * 2; wy += win * 2.6) {
      for (let wx = x + win * 1.5; wx < x + bw - win * 1.5; wx += win * 2.4) {
        if (rng.next() < 0.45) fillRect(ctx.raster, wx, wy, win, win * 1.2, lit, 0.9);
      }
    }
    if (neon && rng.next() < 0.5) {
      const ny = top + bh * rng.range(0.1, 0.4);
      const color = rng.pick([ctx.palette.accent, ctx.palette.accent2]);
      fillRect(ctx.raster, x + bw * 0.15, ny, bw * 0.7, win * 1.5, color);
      addGlow(ctx.raster, x + bw / 2, ny, bw, color, 0.35);
    }
    x += bw + ctx.u * rng.range(0, 0.015);
  }
}

function paintWater(ctx: Ctx, id: 'sea' | 'lake'): boolean {
  const weight = ctx.weight(id);
  if (weight <= 0) return false;
  const rng = ctx.rngFor(id);
  const deep = mixRgb(ctx.palette.dark, [0.1, 0.3, 0.55], 0.5);
  const surface = mixRgb(ctx.palette.skyBottom, [0.3, 0.55, 0.8], 0.4);
  const top = ctx.horizon;
  if (id === 'sea') {
    const heights = new Float32Array(ctx.w).fill(top);
    fillBelowCurve(ctx.raster, heights, (_x, y) => mixRgb(surface, deep, clamp01((y - top) / (ctx.h - top))));
  } else {
    const cx = ctx.w * rng.range(0.35, 0.65);
    fillEllipse(
      ctx.raster,
      cx,
      top + (ctx.h - top) * 0.35,
      ctx.w * 0.42 * ctx.size('lake'),
      (ctx.h - top) * 0.28,
      0,
      surface,
      1,
      3,
    );
  }
  const crest = lighten(surface, 0.5);
  const rows = Math.round(8 + 6 * weight);
  for (let r = 0; r < rows; r++) {
    const y0 = top + ((ctx.h - top) * (r + 0.5)) / rows;
    const amp = ctx.u * 0.006 * (1 + r / 4);
    const freq = rng.range(0.02, 0.04);
    const phase = rng.range(0, Math.PI * 2);
    const dash = rng.range(0.3, 0.7);
    let prevX = 0;
    let prevY = y0;
    for (let x = 4; x <= ctx.w; x += 4) {
      const y = y0 + amp * Math.sin(x * freq + phase);
      if (Math.sin(x * 0.013 + phase * 3) > dash - 0.5)
        drawLine(ctx.raster, prevX, prevY, x, y, 1.2 + r * 0.15, crest, 0.55);
      prevX = x;
      prevY = y;
    }
  }
  return true;
}

function paintGround(ctx: Ctx): void {
  const ink = ctx.scene.style === 'ink';
  const ground = ink
    ? mixRgb(ctx.palette.light, ctx.palette.dark, 0.12)
    : mixRgb(ctx.palette.accent2, ctx.palette.dark, 0.35);
  const rng = ctx.rngFor('ground');
  const line = fractalLine(rng, ctx.w, 3, 0.5);
  const heights = new Float32Array(ctx.w);
  for (let x = 0; x < ctx.w; x++) heights[x] = ctx.horizon + ctx.h * 0.02 * line[x]!;
  fillBelowCurve(ctx.raster, heights, (_x, y) =>
    mixRgb(ground, ctx.palette.dark, clamp01((y - ctx.horizon) / ctx.h) * (ink ? 0.25 : 0.8)),
  );
}

function paintTrees(ctx: Ctx): void {
  const weight = ctx.weight('tree');
  if (weight <= 0) return;
  const rng = ctx.rngFor('tree');
  const count = Math.round(2 + 3 * weight);
  const leaf = mixRgb(ctx.palette.accent2, [0.15, 0.45, 0.2], 0.4);
  for (let i = 0; i < count; i++) {
    const x = rng.range(0.03, 0.97) * ctx.w;
    const baseY = ctx.horizon + rng.range(0, 0.12) * ctx.h;
    const height = ctx.h * rng.range(0.16, 0.3) * ctx.size('tree');
    drawLine(ctx.raster, x, baseY, x, baseY - height * 0.7, ctx.u * 0.014, darken(ctx.palette.accent2, 0.7));
    for (let k = 0; k < 6; k++) {
      fillCircle(
        ctx.raster,
        x + rng.range(-0.22, 0.22) * height,
        baseY - height * rng.range(0.6, 1),
        height * rng.range(0.14, 0.24),
        scaleRgb(leaf, rng.range(0.75, 1.15)),
        1,
        2,
      );
    }
  }
}

function paintHouse(ctx: Ctx): void {
  const weight = ctx.weight('house');
  if (weight <= 0) return;
  const rng = ctx.rngFor('house');
  const x = ctx.w * rng.range(0.15, 0.85);
  const base = ctx.horizon + ctx.h * 0.02;
  const tiers = Math.round(2 + 2 * weight);
  const width = ctx.u * 0.12 * ctx.size('house');
  const roof = darken(ctx.palette.accent, 0.3);
  const wall = mixRgb(ctx.palette.light, ctx.palette.accent, 0.25);
  let y = base;
  for (let t = 0; t < tiers; t++) {
    const tw = width * (1 - t * 0.15);
    const th = width * 0.35;
    fillRect(ctx.raster, x - tw * 0.35, y - th, tw * 0.7, th, wall);
    fillPolygon(
      ctx.raster,
      [
        [x - tw * 0.65, y - th],
        [x + tw * 0.65, y - th],
        [x + tw * 0.4, y - th * 1.45],
        [x - tw * 0.4, y - th * 1.45],
      ],
      roof,
    );
    y -= th * 1.45;
  }
  drawLine(ctx.raster, x, y, x, y - width * 0.3, 2, roof);
}

function paintBoat(ctx: Ctx): void {
  if (ctx.weight('boat') <= 0) return;
  const rng = ctx.rngFor('boat');
  const s = ctx.u * 0.08 * ctx.size('boat');
  const x = ctx.w * rng.range(0.2, 0.8);
  const y = ctx.horizon + (ctx.h - ctx.horizon) * rng.range(0.2, 0.45);
  const hull = darken(ctx.palette.accent, 0.45);
  fillPolygon(
    ctx.raster,
    [
      [x - s, y],
      [x + s, y],
      [x + s * 0.7, y + s * 0.3],
      [x - s * 0.7, y + s * 0.3],
    ],
    hull,
  );
  drawLine(ctx.raster, x, y, x, y - s * 1.3, 2, hull);
  fillPolygon(
    ctx.raster,
    [
      [x + 2, y - s * 1.25],
      [x + 2, y - s * 0.1],
      [x + s * 0.85, y - s * 0.1],
    ],
    lighten(ctx.palette.light, 0.2),
  );
}

function paintBirds(ctx: Ctx): void {
  const weight = ctx.weight('bird');
  if (weight <= 0) return;
  const rng = ctx.rngFor('bird');
  const count = Math.round(3 + 3 * weight);
  const color = ctx.palette.dark;
  for (let i = 0; i < count; i++) {
    const x = rng.range(0.1, 0.9) * ctx.w;
    const y = rng.range(0.1, 0.45) * ctx.horizon;
    const s = ctx.u * rng.range(0.015, 0.035) * ctx.size('bird');
    drawLine(ctx.raster, x - s, y - s * 0.4, x, y, 2, color);
    drawLine(ctx.raster, x, y, x + s, y - s * 0.5, 2, color);
  }
}

function paintFlower(ctx: Ctx, x: number, y: number, r: number, petals: number, turn: number, color: Rgb): void {
  for (let p = 0; p < petals; p++) {
    const a = turn + (p / petals) * Math.PI * 2;
    fillEllipse(
      ctx.raster,
      x + Math.cos(a) * r * 0.55,
      y + Math.sin(a) * r * 0.55,
      r * 0.55,
      r * 0.26,
      a,
      color,
      1,
      1.5,
    );
    fillEllipse(
      ctx.raster,
      x + Math.cos(a) * r * 0.45,
      y + Math.sin(a) * r * 0.45,
      r * 0.3,
      r * 0.1,
      a,
      lighten(color, 0.35),
      0.6,
    );
  }
  fillCircle(ctx.raster, x, y, r * 0.2, [0.98, 0.8, 0.25]);
  fillCircle(ctx.raster, x, y, r * 0.1, darken([0.98, 0.7, 0.2], 0.3));
}

function paintFlowers(ctx: Ctx, main: boolean): void {
  const weight = ctx.weight('flower');
  if (weight <= 0) return;
  const rng = ctx.rngFor('flower');
  const color =
    ctx.scene.colors && Object.keys(ctx.scene.colors).length ? ctx.palette.accent : ([0.96, 0.5, 0.66] as Rgb);
  const stem = darken(ctx.palette.accent2, 0.3);
  if (main) {
    const x = ctx.w * rng.range(0.4, 0.6);
    const y = ctx.h * rng.range(0.38, 0.48);
    const r = ctx.u * 0.2 * ctx.size('flower');
    drawLine(ctx.raster, x, y, x + rng.range(-0.05, 0.05) * ctx.w, ctx.h, ctx.u * 0.018, stem);
    fillEllipse(ctx.raster, x + r * 0.5, y + r * 1.9, r * 0.5, r * 0.16, -0.5, stem);
    fillEllipse(ctx.raster, x - r * 0.5, y + r * 2.4, r * 0.5, r * 0.16, 0.5, stem);
    paintFlower(ctx, x, y, r, rng.int(5, 8), rng.range(0, Math.PI), color);
  }
  const small = Math.round((main ? 3 : 5) * weight);
  for (let i = 0; i < small; i++) {
    const x = rng.range(0.05, 0.95) * ctx.w;
    const y = rng.range(0.78, 0.95) * ctx.h;
    const r = ctx.u * rng.range(0.035, 0.06) * ctx.size('flower');
    drawLine(ctx.raster, x, y, x, ctx.h, 2, stem);
    paintFlower(ctx, x, y, r, rng.int(5, 7), rng.range(0, Math.PI), scaleRgb(color, rng.range(0.85, 1.1)));
  }
}

function paintFigure(ctx: Ctx, cx: number): void {
  const rng = ctx.rngFor('figure');
  const chibi = (ctx.scene.moods.chibi ?? 0) > 0;
  const total = ctx.h * 0.62 * Math.min(1.3, ctx.size('figure'));
  const feet = ctx.h * 0.95;
  const headR = total * (chibi ? 0.2 : 0.085);
  const headY = feet - total + headR;
  const ink = ctx.scene.style === 'ink';
  const skin: Rgb = ink ? [0.85, 0.84, 0.8] : [0.98, 0.84, 0.72];
  const hair: Rgb = ink
    ? [0.08, 0.08, 0.08]
    : rng.pick([[0.12, 0.1, 0.12], [0.4, 0.24, 0.14], darken(ctx.palette.accent2, 0.3)] as Rgb[]);
  const dress = ink ? ([0.3, 0.3, 0.32] as Rgb) : ctx.palette.accent;
  const shoulderY = headY + headR * 1.25;
  const shoulderW = total * (chibi ? 0.14 : 0.11);
  const hemW = total * (chibi ? 0.22 : 0.26) * rng.range(0.85, 1.15);
  const hemY = feet - total * (chibi ? 0.08 : 0.12);
  // legs, hair behind, dress, arms, head, face
  drawLine(ctx.raster, cx - shoulderW * 0.3, hemY, cx - shoulderW * 0.35, feet, total * 0.03, darken(skin, 0.2));
  drawLine(ctx.raster, cx + shoulderW * 0.3, hemY, cx + shoulderW * 0.35, feet, total * 0.03, darken(skin, 0.2));
  fillEllipse(ctx.raster, cx, headY + headR * 0.9, headR * 1.15, headR * 1.7, 0, hair);
  fillPolygon(
    ctx.raster,
    [
      [cx - shoulderW, shoulderY],
      [cx + shoulderW, shoulderY],
      [cx + hemW, hemY],
      [cx - hemW, hemY],
    ],
    dress,
  );
  fillPolygon(
    ctx.raster,
    [
      [cx - shoulderW * 0.4, shoulderY],
      [cx + shoulderW * 0.4, shoulderY],
      [cx, shoulderY + total * 0.08],
    ],
    lighten(dress, 0.35),
  );
  const armLift = rng.range(-0.15, 0.35);
  drawLine(
    ctx.raster,
    cx - shoulderW,
    shoulderY + 4,
    cx - shoulderW * 1.6,
    shoulderY + total * (0.3 - armLift),
    total * 0.035,
    dress,
  );
  drawLine(
    ctx.raster,
    cx + shoulderW,
    shoulderY + 4,
    cx + shoulderW * 1.5,
    shoulderY + total * 0.3,
    total * 0.035,
    dress,
  );
  fillCircle(ctx.raster, cx, headY, headR, skin);
  fillEllipse(ctx.raster, cx, headY - headR * 0.55, headR * 1.08, headR * 0.55, 0, hair);
  const eye = chibi ? headR * 0.16 : headR * 0.11;
  fillCircle(ctx.raster, cx - headR * 0.38, headY + headR * 0.1, eye, [0.15, 0.12, 0.2]);
  fillCircle(ctx.raster, cx + headR * 0.38, headY + headR * 0.1, eye, [0.15, 0.12, 0.2]);
  fillCircle(ctx.raster, cx - headR * 0.55, headY + headR * 0.45, eye * 1.2, [0.98, 0.6, 0.6], 0.35);
  fillCircle(ctx.raster, cx + headR * 0.55, headY + headR * 0.45, eye * 1.2, [0.98, 0.6, 0.6], 0.35);
}

function paintCat(ctx: Ctx, cx: number): void {
  const rng = ctx.rngFor('cat');
  const s = ctx.u * 0.16 * Math.min(1.4, ctx.size('cat'));
  const baseY = ctx.h * 0.93;
  const colors = ctx.scene.colors;
  const fur: Rgb = colors.black
    ? [0.1, 0.1, 0.12]
    : colors.white
      ? [0.95, 0.94, 0.9]
      : rng.pick([
          [0.92, 0.56, 0.22],
          [0.55, 0.55, 0.58],
          [0.3, 0.25, 0.22],
        ] as Rgb[]);
  const dark = darken(fur, 0.35);
  const tailSide = rng.next() < 0.5 ? -1 : 1;
  let px = cx + tailSide * s * 0.8;
  let py = baseY - s * 0.2;
  for (let i = 1; i <= 10; i++) {
    const t = i / 10;
    const nx = cx + tailSide * s * (0.8 + 0.5 * t);
    const ny = baseY - s * (0.2 + 1.1 * t) + Math.sin(t * 3) * s * 0.1;
    drawLine(ctx.raster, px, py, nx, ny, s * 0.16, dark);
    px = nx;
    py = ny;
  }
  fillEllipse(ctx.raster, cx, baseY - s * 0.7, s * 0.85, s * 0.75, 0, fur);
  const headY = baseY - s * 1.65;
  const headR = s * 0.55;
  for (const side of [-1, 1]) {
    fillPolygon(
      ctx.raster,
      [
        [cx + side * headR * 0.95, headY - headR * 0.15],
        [cx + side * headR * 0.25, headY - headR * 0.75],
        [cx + side * headR * 0.85, headY - headR * 1.3],
      ],
      fur,
    );
  }
  fillCircle(ctx.raster, cx, headY, headR, fur);
  const eyeColor: Rgb = rng.pick([
    [0.4, 0.8, 0.3],
    [0.95, 0.75, 0.2],
    [0.3, 0.6, 0.95],
  ] as Rgb[]);
  for (const side of [-1, 1]) {
    fillEllipse(ctx.raster, cx + side * headR * 0.38, headY - headR * 0.05, headR * 0.17, headR * 0.22, 0, eyeColor);
    fillEllipse(
      ctx.raster,
      cx + side * headR * 0.38,
      headY - headR * 0.05,
      headR * 0.05,
      headR * 0.18,
      0,
      [0.05, 0.05, 0.05],
    );
    drawLine(
      ctx.raster,
      cx + side * headR * 0.3,
      headY + headR * 0.35,
      cx + side * headR * 1.2,
      headY + headR * 0.25,
      1,
      [0.9, 0.9, 0.9],
      0.8,
    );
  }
  fillPolygon(
    ctx.raster,
    [
      [cx - headR * 0.1, headY + headR * 0.22],
      [cx + headR * 0.1, headY + headR * 0.22],
      [cx, headY + headR * 0.34],
    ],
    [0.9, 0.5, 0.55],
  );
}

function paintProduct(ctx: Ctx): void {
  const rng = ctx.rngFor('product');
  const s = ctx.u * 0.22 * Math.min(1.4, ctx.size('product'));
  const cx = ctx.w / 2;
  const floor = ctx.h * 0.8;
  const podium = mixRgb(ctx.palette.light, ctx.palette.accent2, 0.2);
  fillRect(ctx.raster, cx - s * 1.3, floor, s * 2.6, ctx.h * 0.12, darken(podium, 0.12));
  fillEllipse(ctx.raster, cx, floor, s * 1.3, s * 0.28, 0, podium);
  fillEllipse(ctx.raster, cx, floor + ctx.h * 0.12, s * 1.3, s * 0.28, 0, darken(podium, 0.12));
  fillEllipse(ctx.raster, cx + s * 0.25, floor, s * 0.7, s * 0.12, 0, darken(podium, 0.4), 0.5, 6);
  const bodyH = s * rng.range(1.1, 1.5);
  const bodyW = s * rng.range(0.55, 0.75);
  const glass = ctx.palette.accent;
  const top = floor - bodyH;
  fillRect(ctx.raster, cx - bodyW / 2, top, bodyW, bodyH, glass);
  fillEllipse(ctx.raster, cx, top, bodyW / 2, bodyW * 0.12, 0, lighten(glass, 0.2));
  fillRect(ctx.raster, cx - bodyW * 0.15, top - s * 0.25, bodyW * 0.3, s * 0.25, darken(glass, 0.2));
  fillRect(
    ctx.raster,
    cx - bodyW * 0.22,
    top - s * 0.45,
    bodyW * 0.44,
    s * 0.22,
    rng.pick([
      [0.85, 0.7, 0.3],
      [0.15, 0.15, 0.17],
    ] as Rgb[]),
  );
  fillRect(ctx.raster, cx - bodyW * 0.34, top + bodyH * 0.12, bodyW * 0.08, bodyH * 0.76, [1, 1, 1], 0.45);
  fillRect(ctx.raster, cx - bodyW * 0.3, top + bodyH * 0.45, bodyW * 0.6, bodyH * 0.22, ctx.palette.light, 0.85);
}

const SHAPE_KINDS = ['circle', 'triangle', 'square', 'ring', 'star'] as const;

function hsl(h: number, s: number, l: number): Rgb {
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const a = s * Math.min(l, 1 - l);
    return l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0), f(8), f(4)];
}

function paintShapes(ctx: Ctx, abstract: boolean): void {
  const terms = abstract ? [{ text: `abstract-${ctx.seed}`, weight: 1 }] : ctx.scene.shapes;
  for (const term of terms) {
    const h = hashString(term.text);
    const rng = new Rng(mix32(ctx.seed, h));
    const kind = SHAPE_KINDS[h % SHAPE_KINDS.length]!;
    const count = abstract ? 7 : 1 + ((h >>> 3) % 3);
    const color = mixRgb(hsl(h % 360, 0.65, 0.55), ctx.palette.accent, 0.25);
    const w = Math.max(0.3, Math.min(2, term.weight));
    for (let i = 0; i < count; i++) {
      const x = rng.range(0.12, 0.88) * ctx.w;
      const y = rng.range(0.12, 0.8) * ctx.h;
      const r = ctx.u * rng.range(0.05, 0.11) * w;
      const c = abstract ? hsl(rng.range(0, 360), 0.6, 0.55) : scaleRgb(color, rng.range(0.85, 1.15));
      const turn = rng.range(0, Math.PI * 2);
      if (kind === 'circle') fillCircle(ctx.raster, x, y, r, c, 0.9, 2);
      else if (kind === 'ring') {
        fillCircle(ctx.raster, x, y, r, c, 0.9, 2);
        fillCircle(ctx.raster, x, y, r * 0.6, mixRgb(c, ctx.palette.skyBottom, 0.8), 0.9, 2);
      } else {
        const corners = kind === 'triangle' ? 3 : kind === 'square' ? 4 : 10;
        const points: [number, number][] = [];
        for (let k = 0; k < corners; k++) {
          const a = turn + (k / corners) * Math.PI * 2;
          const rr = kind === 'star' && k % 2 === 1 ? r * 0.45 : r;
          points.push([x + Math.cos(a) * rr, y + Math.sin(a) * rr]);
        }
        fillPolygon(ctx.raster, points, c, 0.9);
      }
    }
  }
}

function paintWeather(ctx: Ctx): void {
  const snow = ctx.weight('snow');
  if (snow > 0) {
    const rng = ctx.rngFor('snow');
    const count = Math.round(ctx.w * ctx.h * 0.0012 * snow);
    for (let i = 0; i < count; i++)
      fillCircle(ctx.raster, rng.range(0, ctx.w), rng.range(0, ctx.h), rng.range(0.8, 2.2), [1, 1, 1], 0.85);
  }
  const rain = ctx.weight('rain');
  if (rain > 0) {
    const rng = ctx.rngFor('rain');
    const count = Math.round(ctx.w * ctx.h * 0.0008 * rain);
    const len = ctx.u * 0.04;
    for (let i = 0; i < count; i++) {
      const x = rng.range(0, ctx.w);
      const y = rng.range(0, ctx.h);
      drawLine(ctx.raster, x, y, x - len * 0.25, y + len, 1, [0.8, 0.85, 0.95], 0.45);
    }
  }
}

/** The target picture for a scene at a size and seed (before the style filter). */
export function paintScene(scene: Scene, palette: Palette, seed: number, width: number, height: number): Raster {
  const raster = createRaster(width, height);
  const layout = new Rng(mix32(seed, hashString('layout')));
  const subjects = scene.subjects;
  const ctx: Ctx = {
    raster,
    scene,
    palette,
    seed,
    w: width,
    h: height,
    u: Math.min(width, height),
    horizon: height * layout.range(0.56, 0.68),
    rngFor: (name) => new Rng(mix32(seed, hashString(name))),
    weight: (id) => subjects[id] ?? 0,
    size: (id) => Math.max(0.5, Math.min(1.8, 0.6 + 0.4 * (subjects[id] ?? 0))),
  };
  paintSky(ctx);
  paintStars(ctx);
  paintSunOrMoon(ctx, 'sun');
  paintSunOrMoon(ctx, 'moon');
  paintClouds(ctx);
  paintMountains(ctx);
  paintCity(ctx);
  if (!paintWater(ctx, 'sea')) {
    paintGround(ctx);
    paintWater(ctx, 'lake');
  }
  paintTrees(ctx);
  paintHouse(ctx);
  paintBoat(ctx);
  paintBirds(ctx);
  const anything = Object.keys(subjects).length > 0 || scene.shapes.length > 0;
  paintShapes(ctx, !anything);
  const hasFigure = ctx.weight('figure') > 0;
  const hasCat = ctx.weight('cat') > 0;
  const hasProduct = ctx.weight('product') > 0;
  paintFlowers(ctx, !hasFigure && !hasCat && !hasProduct);
  if (hasProduct) paintProduct(ctx);
  if (hasFigure) paintFigure(ctx, width * (hasCat ? 0.38 : 0.5) + width * layout.range(-0.04, 0.04));
  if (hasCat) paintCat(ctx, width * (hasFigure ? 0.72 : 0.5) + width * layout.range(-0.05, 0.05));
  paintWeather(ctx);
  return raster;
}
