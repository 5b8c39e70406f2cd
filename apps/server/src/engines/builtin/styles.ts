import { hashString, mix32, Rng } from './prng.js';
import { blurData, clamp01, cloneRaster, fillRect, lumaPlane, type Raster, type Rgb, sobel } from './raster.js';
import type { StyleId } from './scene.js';

/**
 * Style filters of the built-in engine: each one turns the painted scene into a look
 * (ink wash, oil, cyberpunk neon, pixel blocks, anime cel shading, watercolour, gongbi, photo).
 */

function noisePlane(n: number, rng: Rng, amplitude: number): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (rng.next() - 0.5) * 2 * amplitude;
  return out;
}

function saturate(data: Float32Array, k: number): void {
  for (let i = 0; i < data.length; i += 3) {
    const l = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
    data[i] = l + (data[i]! - l) * k;
    data[i + 1] = l + (data[i + 1]! - l) * k;
    data[i + 2] = l + (data[i + 2]! - l) * k;
  }
}

/** The red square seal in a corner of Chinese paintings. */
function seal(raster: Raster, rng: Rng): void {
  const s = Math.round(Math.min(raster.width, raster.height) * 0.06);
  const x = raster.width - s * 1.6;
  const y = raster.height - s * 1.8;
  const red: Rgb = [0.72, 0.1, 0.08];
  fillRect(raster, x, y, s, s, red, 0.92);
  const paper: Rgb = [0.95, 0.9, 0.82];
  for (let i = 0; i < 5; i++) {
    const horizontal = rng.next() < 0.5;
    const a = x + s * rng.range(0.2, 0.7);
    const b = y + s * rng.range(0.2, 0.7);
    if (horizontal) fillRect(raster, x + s * 0.18, b, s * 0.64, s * 0.07, paper, 0.9);
    else fillRect(raster, a, y + s * 0.18, s * 0.07, s * 0.64, paper, 0.9);
  }
}

function ink(src: Raster, rng: Rng): Raster {
  const { width, height } = src;
  const n = width * height;
  const luma = lumaPlane(src);
  const wash = blurData(luma, width, height, 1, Math.max(2, width / 128));
  const grain = blurData(noisePlane(n, rng, 0.06), width, height, 1, 1);
  const out = cloneRaster(src);
  const paper: Rgb = [0.95, 0.92, 0.85];
  const inkColor: Rgb = [0.07, 0.07, 0.09];
  for (let p = 0; p < n; p++) {
    const l = 0.55 * luma[p]! + 0.45 * wash[p]!;
    const d = clamp01((1 - l - 0.08) * 1.5 + grain[p]!);
    const tone = d * d * (3 - 2 * d);
    for (let c = 0; c < 3; c++) {
      const value = paper[c]! + (inkColor[c]! - paper[c]!) * tone;
      out.data[p * 3 + c] = value * 0.9 + src.data[p * 3 + c]! * 0.1 * (1 - tone) + grain[p]! * 0.2;
    }
  }
  seal(out, rng);
  return out;
}

function watercolor(src: Raster, rng: Rng): Raster {
  const { width, height } = src;
  const n = width * height;
  const soft = blurData(src.data, width, height, 3, Math.max(2, width / 150));
  const lum = new Float32Array(n);
  for (let p = 0; p < n; p++) lum[p] = 0.299 * soft[p * 3]! + 0.587 * soft[p * 3 + 1]! + 0.114 * soft[p * 3 + 2]!;
  const { magnitude } = sobel(lum, width, height);
  const pigment = blurData(noisePlane(n, rng, 0.5), width, height, 1, Math.max(3, width / 60));
  const paper = noisePlane(n, rng, 0.025);
  const out = cloneRaster(src);
  for (let p = 0; p < n; p++) {
    const edge = clamp01(magnitude[p]! * 1.8);
    const granulation = 1 + pigment[p]! * 0.25;
    for (let c = 0; c < 3; c++) {
      const pale = soft[p * 3 + c]! * 0.78 + 0.22;
      out.data[p * 3 + c] = pale * granulation * (1 - 0.3 * edge) + paper[p]!;
    }
  }
  return out;
}

/** Kuwahara filter (summed-area tables): flat painterly patches with kept edges. */
function kuwahara(src: Raster, radius: number): Raster {
  const { width, height, data } = src;
  const W = width + 1;
  const sums = [0, 1, 2, 3].map(() => new Float64Array(W * (height + 1)));
  const [sr, sg, sb, sl] = sums as [Float64Array, Float64Array, Float64Array, Float64Array];
  const sl2 = new Float64Array(W * (height + 1));
  for (let y = 0; y < height; y++) {
    let ar = 0;
    let ag = 0;
    let ab = 0;
    let al = 0;
    let al2 = 0;
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const l = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
      ar += data[i]!;
      ag += data[i + 1]!;
      ab += data[i + 2]!;
      al += l;
      al2 += l * l;
      const o = (y + 1) * W + x + 1;
      const above = y * W + x + 1;
      sr[o] = sr[above]! + ar;
      sg[o] = sg[above]! + ag;
      sb[o] = sb[above]! + ab;
      sl[o] = sl[above]! + al;
      sl2[o] = sl2[above]! + al2;
    }
  }
  const area = (t: Float64Array, x0: number, y0: number, x1: number, y1: number) =>
    t[(y1 + 1) * W + x1 + 1]! - t[y0 * W + x1 + 1]! - t[(y1 + 1) * W + x0]! + t[y0 * W + x0]!;
  const out = cloneRaster(src);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let best = Number.POSITIVE_INFINITY;
      let br = 0;
      let bg = 0;
      let bb = 0;
      for (let q = 0; q < 4; q++) {
        const x0 = q & 1 ? x : Math.max(0, x - radius);
        const x1 = q & 1 ? Math.min(width - 1, x + radius) : x;
        const y0 = q & 2 ? y : Math.max(0, y - radius);
        const y1 = q & 2 ? Math.min(height - 1, y + radius) : y;
        const count = (x1 - x0 + 1) * (y1 - y0 + 1);
        const mean = area(sl, x0, y0, x1, y1) / count;
        const variance = area(sl2, x0, y0, x1, y1) / count - mean * mean;
        if (variance < best) {
          best = variance;
          br = area(sr, x0, y0, x1, y1) / count;
          bg = area(sg, x0, y0, x1, y1) / count;
          bb = area(sb, x0, y0, x1, y1) / count;
        }
      }
      const i = (y * width + x) * 3;
      out.data[i] = br;
      out.data[i + 1] = bg;
      out.data[i + 2] = bb;
    }
  }
  return out;
}

function oil(src: Raster, rng: Rng): Raster {
  const { width, height } = src;
  const n = width * height;
  const out = kuwahara(src, Math.max(3, Math.round(width / 110)));
  saturate(out.data, 1.2);
  const noise = noisePlane(n, rng, 0.5);
  const strokes = new Float32Array(n);
  const len = Math.max(4, Math.round(width / 70));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let acc = 0;
      for (let k = 0; k < len; k++) {
        const sx = Math.min(width - 1, x + k);
        const sy = Math.min(height - 1, y + (k >> 1));
        acc += noise[sy * width + sx]!;
      }
      strokes[y * width + x] = acc / len;
    }
  }
  for (let p = 0; p < n; p++) {
    const k = 1 + strokes[p]! * 0.35;
    out.data[p * 3] = out.data[p * 3]! * k;
    out.data[p * 3 + 1] = out.data[p * 3 + 1]! * k;
    out.data[p * 3 + 2] = out.data[p * 3 + 2]! * k;
  }
  return out;
}

function cyberpunk(src: Raster): Raster {
  const { width, height } = src;
  const n = width * height;
  const out = cloneRaster(src);
  const stops: Rgb[] = [
    [0.03, 0.01, 0.1],
    [0.35, 0.04, 0.5],
    [1, 0.15, 0.7],
    [0.2, 0.95, 1],
    [0.95, 1, 1],
  ];
  const bright = new Float32Array(n * 3);
  for (let p = 0; p < n; p++) {
    const i = p * 3;
    const l = clamp01(0.299 * src.data[i]! + 0.587 * src.data[i + 1]! + 0.114 * src.data[i + 2]!);
    const f = l * (stops.length - 1);
    const k = Math.min(stops.length - 2, Math.floor(f));
    const t = f - k;
    for (let c = 0; c < 3; c++) {
      const mapped = stops[k]![c]! + (stops[k + 1]![c]! - stops[k]![c]!) * t;
      const value = 0.55 * mapped + 0.45 * src.data[i + c]! * 1.1;
      out.data[i + c] = value;
      bright[i + c] = Math.max(0, value - 0.55) * 2;
    }
  }
  const bloom = blurData(bright, width, height, 3, Math.max(4, width / 40));
  for (let y = 0; y < height; y++) {
    const scan = y % 3 === 0 ? 0.86 : 1;
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) out.data[i + c] = (out.data[i + c]! + bloom[i + c]! * 0.6) * scan;
    }
  }
  return out;
}

function pixel(src: Raster): Raster {
  const { width, height, data } = src;
  const block = Math.max(4, Math.round(Math.min(width, height) / 64));
  const out = cloneRaster(src);
  const levels = 5;
  for (let by = 0; by < height; by += block) {
    for (let bx = 0; bx < width; bx += block) {
      const sum = [0, 0, 0];
      let count = 0;
      for (let y = by; y < Math.min(height, by + block); y++) {
        for (let x = bx; x < Math.min(width, bx + block); x++) {
          const i = (y * width + x) * 3;
          sum[0]! += data[i]!;
          sum[1]! += data[i + 1]!;
          sum[2]! += data[i + 2]!;
          count++;
        }
      }
      const color = sum.map((s) => Math.round(clamp01(s / count) * (levels - 1)) / (levels - 1));
      for (let y = by; y < Math.min(height, by + block); y++) {
        for (let x = bx; x < Math.min(width, bx + block); x++) {
          const i = (y * width + x) * 3;
          out.data[i] = color[0]!;
          out.data[i + 1] = color[1]!;
          out.data[i + 2] = color[2]!;
        }
      }
    }
  }
  return out;
}

/** Dark outlines where the luminance changes, as line-art inks them. */
function outline(out: Raster, src: Raster, threshold: number, line: Rgb, strength: number): void {
  const { width, height } = src;
  const { magnitude } = sobel(lumaPlane(src), width, height);
  for (let p = 0; p < width * height; p++) {
    const a = clamp01((magnitude[p]! - threshold) * 4) * strength;
    if (a <= 0) continue;
    for (let c = 0; c < 3; c++) out.data[p * 3 + c] = out.data[p * 3 + c]! + (line[c]! - out.data[p * 3 + c]!) * a;
  }
}

function anime(src: Raster): Raster {
  const { width, height } = src;
  const flat = { width, height, data: blurData(src.data, width, height, 3, 2) };
  const out = cloneRaster(flat);
  const levels = 4;
  for (let i = 0; i < out.data.length; i++) {
    out.data[i] = Math.round(clamp01(out.data[i]!) * (levels - 1) + 0.15) / (levels - 1);
  }
  for (let i = 0; i < out.data.length; i++) out.data[i] = out.data[i]! * 0.6 + flat.data[i]! * 0.4;
  saturate(out.data, 1.2);
  outline(out, src, 0.35, [0.16, 0.1, 0.18], 0.9);
  return out;
}

function gongbi(src: Raster, rng: Rng): Raster {
  const { width, height } = src;
  const n = width * height;
  const out = cloneRaster(src);
  saturate(out.data, 1.25);
  const silk: Rgb = [1, 0.94, 0.82];
  const fibre = noisePlane(n, rng, 0.02);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      const weave = ((x + y) % 4 === 0 ? -0.015 : 0) + fibre[p]!;
      for (let c = 0; c < 3; c++) out.data[p * 3 + c] = out.data[p * 3 + c]! * silk[c]! * 0.95 + weave;
    }
  }
  outline(out, src, 0.2, [0.25, 0.14, 0.08], 0.85);
  seal(out, rng);
  return out;
}

function realistic(src: Raster, rng: Rng): Raster {
  const { width, height } = src;
  const out = { width, height, data: blurData(src.data, width, height, 3, 1.5) };
  const grain = noisePlane(width * height, rng, 0.015);
  const cx = width / 2;
  const cy = height / 2;
  const reach = Math.hypot(cx, cy);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      const vignette = 1 - 0.35 * (Math.hypot(x - cx, y - cy) / reach) ** 2;
      for (let c = 0; c < 3; c++) {
        const v = clamp01(out.data[p * 3 + c]!);
        const curved = v * v * (3 - 2 * v) * 0.35 + v * 0.65;
        out.data[p * 3 + c] = curved * vignette + grain[p]!;
      }
    }
  }
  return out;
}

/** Applies the scene's style (strength by its weight), monochrome and the CFG contrast to a target, in place. */
export function applyStyle(
  raster: Raster,
  style: StyleId | null,
  weight: number,
  seed: number,
  options: { monochrome: number; cfgScale: number },
): Raster {
  const rng = new Rng(mix32(seed, hashString(`style:${style}`)));
  let styled: Raster = raster;
  if (style === 'ink') styled = ink(raster, rng);
  else if (style === 'watercolor') styled = watercolor(raster, rng);
  else if (style === 'oil') styled = oil(raster, rng);
  else if (style === 'cyberpunk') styled = cyberpunk(raster);
  else if (style === 'pixel') styled = pixel(raster);
  else if (style === 'anime') styled = anime(raster);
  else if (style === 'gongbi') styled = gongbi(raster, rng);
  else if (style === 'realistic') styled = realistic(raster, rng);
  const strength = clamp01(0.25 + weight);
  const out = raster.data;
  const k = Math.max(0.6, Math.min(1.5, 0.55 + options.cfgScale / 15.5));
  const contrast = 0.7 + 0.3 * k;
  const mono = clamp01(options.monochrome);
  for (let i = 0; i < out.length; i += 3) {
    let r = out[i]! + (styled.data[i]! - out[i]!) * strength;
    let g = out[i + 1]! + (styled.data[i + 1]! - out[i + 1]!) * strength;
    let b = out[i + 2]! + (styled.data[i + 2]! - out[i + 2]!) * strength;
    r = 0.5 + (r - 0.5) * contrast;
    g = 0.5 + (g - 0.5) * contrast;
    b = 0.5 + (b - 0.5) * contrast;
    const l = 0.299 * r + 0.587 * g + 0.114 * b;
    const sat = k * (1 - mono);
    out[i] = clamp01(l + (r - l) * sat);
    out[i + 1] = clamp01(l + (g - l) * sat);
    out[i + 2] = clamp01(l + (b - l) * sat);
  }
  return raster;
}

/** Where each demo LoRA pulls a pixel of luminance `l`: a colour ramp from shadows to highlights. */
const LORA_RAMPS: Record<string, (l: number) => Rgb> = {
  hf_ink_wash: (l) => [0.08 + 0.86 * l, 0.08 + 0.84 * l, 0.1 + 0.78 * l],
  hf_neon: (l) => [0.35 + 0.65 * l * (1 - l) * 4 * 0.9, 0.05 + 0.85 * l * l, 0.45 + 0.55 * l],
  hf_pastel: (l) => [0.78 + 0.2 * l, 0.7 + 0.25 * l, 0.8 + 0.18 * l],
  hf_sepia: (l) => [0.18 + 0.8 * l, 0.12 + 0.7 * l, 0.06 + 0.52 * l],
};

/**
 * A demo LoRA's effect: the picture pulled toward the LoRA's colour ramp and given a fine grain keyed by its name,
 * both by the weight (0 none, 1 most of the way; negative pushes away). Deterministic: same input, same pixels.
 */
export function applyLora(raster: Raster, name: string, weight: number): void {
  const ramp = LORA_RAMPS[name];
  if (!ramp) throw new Error(`内置演示引擎没有 LoRA：${name}`);
  const pull = Math.max(-0.5, Math.min(1, weight * 0.7));
  const rng = new Rng(hashString(`lora:${name}`));
  const grain = 0.04 * Math.min(1, Math.abs(weight));
  const data = raster.data;
  for (let i = 0; i < data.length; i += 3) {
    const l = clamp01(0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!);
    const target = ramp(l);
    const noise = (rng.next() - 0.5) * grain;
    for (let c = 0; c < 3; c++) data[i + c] = clamp01(data[i + c]! + (target[c]! - data[i + c]!) * pull + noise);
  }
}
