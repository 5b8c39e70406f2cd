import sharp from 'sharp';
import type { EngineControlNet, PreprocessOptions } from '../engine.js';
import { blurData, clamp01, type Raster, sobel } from './raster.js';

/**
 * ControlNet preprocessors of the built-in engine, on real pixels: canny edges (Sobel, non-maximum
 * suppression, double threshold and hysteresis), luminance depth, line-art and invert. Maps are one
 * plane of 0..1 where 1 is "line" or "near".
 */
export type ControlMap = { width: number; height: number; map: Float32Array };

export const BUILTIN_PREPROCESSORS = ['none', 'canny', 'depth', 'lineart', 'invert'] as const;
export type BuiltinPreprocessor = (typeof BUILTIN_PREPROCESSORS)[number];

/** Maps A1111-style module names (depth_midas, lineart_anime, canny …) to ours, or null when unknown. */
export function resolvePreprocessor(module: string): BuiltinPreprocessor | null {
  const name = module.trim().toLowerCase();
  if (!name || name === 'none') return 'none';
  if (name.startsWith('canny')) return 'canny';
  if (name.startsWith('depth')) return 'depth';
  if (name.startsWith('lineart')) return 'lineart';
  if (name.startsWith('invert')) return 'invert';
  return null;
}

async function decodeLuma(image: Buffer, processorRes: number): Promise<ControlMap> {
  const pipeline = sharp(image).flatten({ background: '#ffffff' }).greyscale();
  const meta = await sharp(image).metadata();
  const shortSide = Math.min(meta.width ?? processorRes, meta.height ?? processorRes);
  const scale = processorRes / Math.max(1, shortSide);
  const width = Math.max(8, Math.round((meta.width ?? processorRes) * scale));
  const height = Math.max(8, Math.round((meta.height ?? processorRes) * scale));
  const { data, info } = await pipeline
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const map = new Float32Array(info.width * info.height);
  for (let p = 0; p < map.length; p++) map[p] = data[p * info.channels]! / 255;
  return { width: info.width, height: info.height, map };
}

/** Canny edge detection with thresholds on the 0..255 gradient scale (OpenCV's convention). */
export function canny(luma: ControlMap, low: number, high: number): ControlMap {
  const { width, height } = luma;
  const n = width * height;
  const smooth = blurData(luma.map, width, height, 1, 1.4);
  for (let p = 0; p < n; p++) smooth[p] = smooth[p]! * 255;
  const { magnitude, angle } = sobel(smooth, width, height);
  const thin = new Float32Array(n);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const p = y * width + x;
      const m = magnitude[p]!;
      if (m < low) continue;
      let a = (angle[p]! * 180) / Math.PI;
      if (a < 0) a += 180;
      let dx = 1;
      let dy = 0;
      if (a >= 22.5 && a < 67.5) {
        dx = 1;
        dy = 1;
      } else if (a >= 67.5 && a < 112.5) {
        dx = 0;
        dy = 1;
      } else if (a >= 112.5 && a < 157.5) {
        dx = -1;
        dy = 1;
      }
      const before = magnitude[p - dy * width - dx]!;
      const after = magnitude[p + dy * width + dx]!;
      if (m >= before && m > after) thin[p] = m;
    }
  }
  const map = new Float32Array(n);
  const stack: number[] = [];
  for (let p = 0; p < n; p++) {
    if (thin[p]! >= high && map[p] === 0) {
      map[p] = 1;
      stack.push(p);
      while (stack.length) {
        const q = stack.pop()!;
        const qx = q % width;
        const qy = (q - qx) / width;
        for (let oy = -1; oy <= 1; oy++) {
          for (let ox = -1; ox <= 1; ox++) {
            const nx = qx + ox;
            const ny = qy + oy;
            if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
            const r = ny * width + nx;
            if (map[r] === 0 && thin[r]! >= low) {
              map[r] = 1;
              stack.push(r);
            }
          }
        }
      }
    }
  }
  return { width, height, map };
}

function depth(luma: ControlMap): ControlMap {
  const map = blurData(luma.map, luma.width, luma.height, 1, Math.max(2, luma.width / 100));
  return { width: luma.width, height: luma.height, map };
}

/** Dark strokes of a drawing or photo become white lines on black (difference from the local mean + gradient). */
function lineart(luma: ControlMap): ControlMap {
  const { width, height } = luma;
  const local = blurData(luma.map, width, height, 1, 3);
  const { magnitude } = sobel(luma.map, width, height);
  const map = new Float32Array(width * height);
  for (let p = 0; p < map.length; p++) {
    map[p] = clamp01((local[p]! - luma.map[p]!) * 6 + magnitude[p]! * 0.35);
  }
  return { width, height, map };
}

function invert(luma: ControlMap): ControlMap {
  const map = new Float32Array(luma.map.length);
  for (let p = 0; p < map.length; p++) map[p] = 1 - luma.map[p]!;
  return { width: luma.width, height: luma.height, map };
}

const moduleError = (module: string) => new Error(`内置演示引擎不支持预处理器：${module}`);

/** Runs a preprocessor on an image; thresholds -1 or absent fall back to canny's 100 / 200. */
export async function preprocessToMap(
  module: string,
  image: Buffer,
  options: PreprocessOptions = {},
): Promise<ControlMap> {
  const kind = resolvePreprocessor(module);
  if (!kind) throw moduleError(module);
  const res = Math.max(64, Math.min(2048, Math.round(options.processorRes ?? 512)));
  const luma = await decodeLuma(image, res);
  if (kind === 'canny') {
    const low = options.thresholdA !== undefined && options.thresholdA >= 0 ? options.thresholdA : 100;
    const high = options.thresholdB !== undefined && options.thresholdB >= 0 ? options.thresholdB : 200;
    return canny(luma, Math.min(low, high), Math.max(low, high));
  }
  if (kind === 'depth') return depth(luma);
  if (kind === 'lineart') return lineart(luma);
  if (kind === 'invert') return invert(luma);
  return luma;
}

export function mapToGrayBytes(map: ControlMap): Buffer {
  const out = Buffer.allocUnsafe(map.map.length);
  for (let p = 0; p < map.map.length; p++) out[p] = Math.round(clamp01(map.map[p]!) * 255);
  return out;
}

/** The preprocessed map as a greyscale PNG (what the preview shows). */
export async function preprocessToPng(module: string, image: Buffer, options: PreprocessOptions = {}): Promise<Buffer> {
  const map = await preprocessToMap(module, image, options);
  return sharp(mapToGrayBytes(map), { raw: { width: map.width, height: map.height, channels: 1 } })
    .png({ compressionLevel: 6 })
    .toBuffer();
}

/** A map resampled to the canvas size. */
export async function resizeMap(map: ControlMap, width: number, height: number): Promise<Float32Array> {
  if (map.width === width && map.height === height) return map.map;
  const { data } = await sharp(mapToGrayBytes(map), { raw: { width: map.width, height: map.height, channels: 1 } })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const out = new Float32Array(width * height);
  for (let p = 0; p < out.length; p++) out[p] = data[p]! / 255;
  return out;
}

/** How strongly a unit pulls: its weight, scaled by control mode (1 prompt first, 2 ControlNet first). */
export function unitStrength(unit: EngineControlNet): number {
  const mode = unit.controlMode === 1 ? 0.6 : unit.controlMode === 2 ? 1.4 : 1;
  return clamp01((unit.weight ?? 1) * mode * 0.85);
}

/** The target as this unit would have it: lines drawn in, or shaded by depth. */
export function steerTarget(
  target: Raster,
  map: Float32Array,
  kind: BuiltinPreprocessor,
  strength: number,
  accent: readonly number[],
): Raster {
  const out = { width: target.width, height: target.height, data: new Float32Array(target.data) };
  const n = target.width * target.height;
  let mean = 0;
  for (let i = 0; i < target.data.length; i++) mean += target.data[i]!;
  mean /= target.data.length;
  const line = mean > 0.45 ? [0.06, 0.05, 0.08] : [0.95, 0.95, 1];
  for (let p = 0; p < n; p++) {
    const m = map[p]!;
    for (let c = 0; c < 3; c++) {
      const i = p * 3 + c;
      const t = target.data[i]!;
      const steered =
        kind === 'depth' ? t * (0.25 + 0.75 * m) + accent[c]! * 0.3 * m * (1 - m) * 2 : t + (line[c]! - t) * m;
      out.data[i] = t + (steered - t) * strength;
    }
  }
  return out;
}
