/**
 * Plain typed-array pixel work for the built-in engine: an RGB float canvas (0..1), anti-aliased shapes and filters.
 * Everything is deterministic JavaScript arithmetic, so the same calls give the same pixels.
 */
export type Rgb = readonly [number, number, number];

export type Raster = { width: number; height: number; data: Float32Array };

export function createRaster(width: number, height: number): Raster {
  return { width, height, data: new Float32Array(width * height * 3) };
}

export function cloneRaster(raster: Raster): Raster {
  return { width: raster.width, height: raster.height, data: new Float32Array(raster.data) };
}

export const clamp01 = (v: number) => (v < 0 ? 0 : Math.min(v, 1));

export function mixRgb(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

export function scaleRgb(a: Rgb, k: number): Rgb {
  return [clamp01(a[0] * k), clamp01(a[1] * k), clamp01(a[2] * k)];
}

export function luminance(c: Rgb): number {
  return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
}

/** Blends colour into one pixel with coverage alpha. */
function blendPixel(data: Float32Array, index: number, color: Rgb, alpha: number): void {
  const i = index * 3;
  data[i] = data[i]! + (color[0] - data[i]!) * alpha;
  data[i + 1] = data[i + 1]! + (color[1] - data[i + 1]!) * alpha;
  data[i + 2] = data[i + 2]! + (color[2] - data[i + 2]!) * alpha;
}

export function fillVerticalGradient(raster: Raster, stops: readonly { at: number; color: Rgb }[]): void {
  const { width, height, data } = raster;
  for (let y = 0; y < height; y++) {
    const t = y / Math.max(1, height - 1);
    let k = 0;
    while (k < stops.length - 2 && t > stops[k + 1]!.at) k++;
    const a = stops[k]!;
    const b = stops[Math.min(k + 1, stops.length - 1)]!;
    const local = b.at > a.at ? clamp01((t - a.at) / (b.at - a.at)) : 0;
    const c = mixRgb(a.color, b.color, local);
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      data[i] = c[0];
      data[i + 1] = c[1];
      data[i + 2] = c[2];
    }
  }
}

/** Fills the pixels inside a signed-distance shape (negative inside) with a one-pixel soft edge. */
function fillSdf(
  raster: Raster,
  box: { x0: number; y0: number; x1: number; y1: number },
  sdf: (x: number, y: number) => number,
  color: Rgb,
  alpha: number,
  softness: number,
): void {
  const { width, height, data } = raster;
  const x0 = Math.max(0, Math.floor(box.x0 - softness));
  const y0 = Math.max(0, Math.floor(box.y0 - softness));
  const x1 = Math.min(width - 1, Math.ceil(box.x1 + softness));
  const y1 = Math.min(height - 1, Math.ceil(box.y1 + softness));
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const d = sdf(x + 0.5, y + 0.5);
      const coverage = clamp01(0.5 - d / softness);
      if (coverage > 0) blendPixel(data, y * width + x, color, coverage * alpha);
    }
  }
}

export function fillCircle(raster: Raster, cx: number, cy: number, r: number, color: Rgb, alpha = 1, soft = 1): void {
  fillSdf(
    raster,
    { x0: cx - r, y0: cy - r, x1: cx + r, y1: cy + r },
    (x, y) => Math.hypot(x - cx, y - cy) - r,
    color,
    alpha,
    soft,
  );
}

export function fillEllipse(
  raster: Raster,
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  angle: number,
  color: Rgb,
  alpha = 1,
  soft = 1,
): void {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const reach = Math.max(rx, ry);
  const minR = Math.min(rx, ry);
  fillSdf(
    raster,
    { x0: cx - reach, y0: cy - reach, x1: cx + reach, y1: cy + reach },
    (x, y) => {
      const dx = x - cx;
      const dy = y - cy;
      const u = (dx * cos + dy * sin) / rx;
      const v = (-dx * sin + dy * cos) / ry;
      return (Math.sqrt(u * u + v * v) - 1) * minR;
    },
    color,
    alpha,
    soft,
  );
}

export function fillRect(raster: Raster, x: number, y: number, w: number, h: number, color: Rgb, alpha = 1): void {
  fillSdf(
    raster,
    { x0: x, y0: y, x1: x + w, y1: y + h },
    (px, py) => Math.max(x - px, px - (x + w), y - py, py - (y + h)),
    color,
    alpha,
    1,
  );
}

/** A thick line with round caps. */
export function drawLine(
  raster: Raster,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  thickness: number,
  color: Rgb,
  alpha = 1,
): void {
  const r = thickness / 2;
  const dx = x1 - x0;
  const dy = y1 - y0;
  const len2 = dx * dx + dy * dy || 1;
  fillSdf(
    raster,
    { x0: Math.min(x0, x1) - r, y0: Math.min(y0, y1) - r, x1: Math.max(x0, x1) + r, y1: Math.max(y0, y1) + r },
    (px, py) => {
      const t = clamp01(((px - x0) * dx + (py - y0) * dy) / len2);
      return Math.hypot(px - (x0 + dx * t), py - (y0 + dy * t)) - r;
    },
    color,
    alpha,
    1,
  );
}

/** A filled polygon (even–odd), scanline with soft horizontal edges. */
export function fillPolygon(raster: Raster, points: readonly [number, number][], color: Rgb, alpha = 1): void {
  const { width, height, data } = raster;
  let minY = Number.POSITIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const [, y] of points) {
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  const yStart = Math.max(0, Math.floor(minY));
  const yEnd = Math.min(height - 1, Math.ceil(maxY));
  const xs: number[] = [];
  for (let y = yStart; y <= yEnd; y++) {
    const sy = y + 0.5;
    xs.length = 0;
    for (let i = 0; i < points.length; i++) {
      const [ax, ay] = points[i]!;
      const [bx, by] = points[(i + 1) % points.length]!;
      if (ay <= sy === by <= sy) continue;
      xs.push(ax + ((sy - ay) / (by - ay)) * (bx - ax));
    }
    xs.sort((a, b) => a - b);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      const left = xs[k]!;
      const right = xs[k + 1]!;
      const xa = Math.max(0, Math.floor(left));
      const xb = Math.min(width - 1, Math.floor(right));
      for (let x = xa; x <= xb; x++) {
        const coverage = clamp01(Math.min(x + 1, right) - Math.max(x, left));
        if (coverage > 0) blendPixel(data, y * width + x, color, coverage * alpha);
      }
    }
  }
}

/** Fills every column from its curve height down to the bottom (ridges, sea, ground). */
export function fillBelowCurve(
  raster: Raster,
  heights: Float32Array,
  color: Rgb | ((x: number, y: number) => Rgb),
  alpha = 1,
): void {
  const { width, height, data } = raster;
  for (let x = 0; x < width; x++) {
    const top = heights[x]!;
    const yStart = Math.max(0, Math.floor(top));
    for (let y = yStart; y < height; y++) {
      const coverage = y === yStart ? clamp01(y + 1 - top) : 1;
      const c = typeof color === 'function' ? color(x, y) : color;
      blendPixel(data, y * width + x, c, coverage * alpha);
    }
  }
}

/** Adds light around a point (sun, moon, neon). */
export function addGlow(raster: Raster, cx: number, cy: number, radius: number, color: Rgb, strength: number): void {
  const { width, height, data } = raster;
  const x0 = Math.max(0, Math.floor(cx - radius));
  const x1 = Math.min(width - 1, Math.ceil(cx + radius));
  const y0 = Math.max(0, Math.floor(cy - radius));
  const y1 = Math.min(height - 1, Math.ceil(cy + radius));
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const d = Math.hypot(x - cx, y - cy) / radius;
      if (d >= 1) continue;
      const k = (1 - d) * (1 - d) * strength;
      const i = (y * width + x) * 3;
      data[i] = data[i]! + color[0] * k;
      data[i + 1] = data[i + 1]! + color[1] * k;
      data[i + 2] = data[i + 2]! + color[2] * k;
    }
  }
}

/** One horizontal and one vertical box pass over `channels` interleaved channels, in place. */
function boxPass(src: Float32Array, dst: Float32Array, width: number, height: number, channels: number, r: number) {
  const norm = 1 / (2 * r + 1);
  // horizontal: src -> dst
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let c = 0; c < channels; c++) {
      let acc = 0;
      for (let k = -r; k <= r; k++) acc += src[(row + Math.min(width - 1, Math.max(0, k))) * channels + c]!;
      for (let x = 0; x < width; x++) {
        dst[(row + x) * channels + c] = acc * norm;
        const out = Math.max(0, x - r);
        const inn = Math.min(width - 1, x + r + 1);
        acc += src[(row + inn) * channels + c]! - src[(row + out) * channels + c]!;
      }
    }
  }
  // vertical: dst -> src
  for (let x = 0; x < width; x++) {
    for (let c = 0; c < channels; c++) {
      let acc = 0;
      for (let k = -r; k <= r; k++) acc += dst[(Math.min(height - 1, Math.max(0, k)) * width + x) * channels + c]!;
      for (let y = 0; y < height; y++) {
        src[(y * width + x) * channels + c] = acc * norm;
        const out = Math.max(0, y - r);
        const inn = Math.min(height - 1, y + r + 1);
        acc += dst[(inn * width + x) * channels + c]! - dst[(out * width + x) * channels + c]!;
      }
    }
  }
}

/** Near-Gaussian blur (two box passes) of interleaved data; returns a new array. */
export function blurData(
  data: Float32Array,
  width: number,
  height: number,
  channels: number,
  radius: number,
  scratch?: Float32Array,
): Float32Array {
  const out = new Float32Array(data);
  if (radius < 1) return out;
  const tmp = scratch && scratch.length === data.length ? scratch : new Float32Array(data.length);
  const r = Math.max(1, Math.round(radius / 1.4));
  boxPass(out, tmp, width, height, channels, r);
  boxPass(out, tmp, width, height, channels, r);
  return out;
}

export function blurRaster(raster: Raster, radius: number): Raster {
  return {
    width: raster.width,
    height: raster.height,
    data: blurData(raster.data, raster.width, raster.height, 3, radius),
  };
}

/** Luminance plane (0..1) of an RGB raster. */
export function lumaPlane(raster: Raster): Float32Array {
  const { data } = raster;
  const n = raster.width * raster.height;
  const out = new Float32Array(n);
  for (let p = 0; p < n; p++) out[p] = 0.299 * data[p * 3]! + 0.587 * data[p * 3 + 1]! + 0.114 * data[p * 3 + 2]!;
  return out;
}

/** Sobel gradient magnitude and direction of a single plane. */
export function sobel(
  plane: Float32Array,
  width: number,
  height: number,
): { magnitude: Float32Array; angle: Float32Array } {
  const magnitude = new Float32Array(width * height);
  const angle = new Float32Array(width * height);
  const at = (x: number, y: number) =>
    plane[Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))]!;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const gx =
        -at(x - 1, y - 1) -
        2 * at(x - 1, y) -
        at(x - 1, y + 1) +
        at(x + 1, y - 1) +
        2 * at(x + 1, y) +
        at(x + 1, y + 1);
      const gy =
        -at(x - 1, y - 1) -
        2 * at(x, y - 1) -
        at(x + 1, y - 1) +
        at(x - 1, y + 1) +
        2 * at(x, y + 1) +
        at(x + 1, y + 1);
      const p = y * width + x;
      magnitude[p] = Math.hypot(gx, gy);
      angle[p] = Math.atan2(gy, gx);
    }
  }
  return { magnitude, angle };
}

/** 8-bit RGB bytes of a raster (clamped, rounded). */
export function toRgbBytes(raster: Raster): Buffer {
  const { data } = raster;
  const out = Buffer.allocUnsafe(data.length);
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    out[i] = v <= 0 ? 0 : v >= 1 ? 255 : Math.round(v * 255);
  }
  return out;
}

export function fromRgbBytes(bytes: Uint8Array, width: number, height: number, channels: number): Raster {
  const raster = createRaster(width, height);
  const n = width * height;
  for (let p = 0; p < n; p++) {
    for (let c = 0; c < 3; c++) {
      const src = channels >= 3 ? c : 0;
      raster.data[p * 3 + c] = bytes[p * channels + src]! / 255;
    }
  }
  return raster;
}
