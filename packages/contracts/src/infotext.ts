/**
 * AUTOMATIC1111's `parameters` text (infotext), written and read by the rules of its
 * modules/infotext_utils.py (v1.10): the prompt, an optional `Negative prompt:` line, and a last line of
 * `Key: value` pairs. A value holding a comma, colon or line break is written as a JSON string.
 * Pure TypeScript: the server writes with it and the web reads with it.
 */

/** One `Key: value` pair of the last line; the key is \w followed by word characters, spaces, `-` or `/`. */
const PARAM_PATTERN = /\s*(\w[\w \-/]+):\s*("(?:\\.|[^\\"])+"|[^,]*)(?:,|$)/g;
const SIZE_PATTERN = /^(\d+)x(\d+)$/;

/** A value as A1111's quote() writes it; also quotes a leading `"`, which the reader would otherwise unquote. */
export function quoteInfotextValue(value: string | number): string {
  const text = String(value);
  if (!/[,:\n]/.test(text) && !text.startsWith('"')) return text;
  return JSON.stringify(text);
}

function unquote(text: string): string {
  if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) return text;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? value : text;
  } catch {
    return text;
  }
}

/** The pairs of a line, as A1111's re_param.findall finds them (values still quoted). */
function paramPairs(line: string): [string, string][] {
  return [...line.matchAll(PARAM_PATTERN)].map((match) => [match[1]!, match[2]!]);
}

/**
 * What A1111's parse_generation_parameters makes of a text, before it fills in defaults: `Prompt`,
 * `Negative prompt`, and every pair of the last line unquoted, a `WxH` value split into `Key-1` and `Key-2`.
 */
export function parseInfotext(text: string): Record<string, string> {
  const lines = text.trim().split('\n');
  let last = lines.pop() ?? '';
  // A last line with fewer than 3 pairs is still prompt.
  if (paramPairs(last).length < 3) {
    lines.push(last);
    last = '';
  }
  let prompt = '';
  let negative = '';
  let inNegative = false;
  for (const raw of lines) {
    let line = raw.trim();
    if (line.startsWith('Negative prompt:')) {
      inNegative = true;
      line = line.slice(16).trim();
    }
    if (inNegative) negative += (negative === '' ? '' : '\n') + line;
    else prompt += (prompt === '' ? '' : '\n') + line;
  }
  const out: Record<string, string> = { Prompt: prompt, 'Negative prompt': negative };
  for (const [key, quoted] of paramPairs(last)) {
    const value = quoted.startsWith('"') && quoted.endsWith('"') ? unquote(quoted) : quoted;
    const size = SIZE_PATTERN.exec(value);
    if (size) {
      out[`${key}-1`] = size[1]!;
      out[`${key}-2`] = size[2]!;
    } else out[key] = value;
  }
  return out;
}

/** The text of prompt, negative prompt and pairs, as A1111's create_infotext joins them. */
export function joinInfotext(
  prompt: string,
  negativePrompt: string,
  pairs: readonly [string, string | number][],
): string {
  const params = pairs.map(([key, value]) => `${key}: ${quoteInfotextValue(value)}`).join(', ');
  const negative = negativePrompt ? `\nNegative prompt: ${negativePrompt}` : '';
  return `${prompt}${negative}\n${params}`.trim();
}

/** A float as Python's str() shows it (1 → "1.0"), as the ControlNet extension writes its unit fields. */
export function pythonFloat(value: number): string {
  return Number.isInteger(value) ? `${value}.0` : String(value);
}

// Sampler names: A1111's labels (sd_samplers_kdiffusion.py, sd_samplers_timesteps.py) and ComfyUI's sampler_name.
export const A1111_SAMPLERS: readonly (readonly [a1111: string, comfy: string])[] = [
  ['Euler a', 'euler_ancestral'],
  ['Euler', 'euler'],
  ['LMS', 'lms'],
  ['Heun', 'heun'],
  ['DPM2', 'dpm_2'],
  ['DPM2 a', 'dpm_2_ancestral'],
  ['DPM++ 2S a', 'dpmpp_2s_ancestral'],
  ['DPM++ 2M', 'dpmpp_2m'],
  ['DPM++ SDE', 'dpmpp_sde'],
  ['DPM++ SDE', 'dpmpp_sde_gpu'],
  ['DPM++ 2M SDE', 'dpmpp_2m_sde'],
  ['DPM++ 2M SDE', 'dpmpp_2m_sde_gpu'],
  ['DPM++ 3M SDE', 'dpmpp_3m_sde'],
  ['DPM++ 3M SDE', 'dpmpp_3m_sde_gpu'],
  ['DPM fast', 'dpm_fast'],
  ['DPM adaptive', 'dpm_adaptive'],
  ['LCM', 'lcm'],
  ['DDPM', 'ddpm'],
  ['DDIM', 'ddim'],
  ['UniPC', 'uni_pc'],
  ['UniPC', 'uni_pc_bh2'],
  ['Euler CFG++', 'euler_cfg_pp'],
  ['Euler a CFG++', 'euler_ancestral_cfg_pp'],
];

/** Schedule types: A1111's labels (sd_schedulers.py) and ComfyUI's scheduler names. */
export const A1111_SCHEDULE_TYPES: readonly (readonly [a1111: string, comfy: string | null])[] = [
  ['Automatic', null],
  ['Uniform', null],
  ['Karras', 'karras'],
  ['Exponential', 'exponential'],
  ['Polyexponential', null],
  ['SGM Uniform', 'sgm_uniform'],
  ['KL Optimal', 'kl_optimal'],
  ['Align Your Steps', null],
  ['Simple', 'simple'],
  ['Normal', 'normal'],
  ['DDIM', 'ddim_uniform'],
  ['Beta', 'beta'],
];

export type A1111Sampler = { sampler: string; scheduleType: string | null };

/**
 * A sampler as the site names it (A1111 labels, older A1111's "DPM++ 2M Karras", or a ComfyUI sampler_name) in
 * A1111's spelling: the sampler and the schedule its name carries (null when it names none).
 */
export function a1111SamplerOf(name: string): A1111Sampler {
  const trimmed = name.trim();
  const comfy = A1111_SAMPLERS.find(([, value]) => value === trimmed);
  if (comfy) return { sampler: comfy[0], scheduleType: null };
  const lower = trimmed.toLowerCase();
  for (const [label] of A1111_SCHEDULE_TYPES) {
    for (const suffix of label === 'SGM Uniform' ? [label, 'SGMUniform'] : [label]) {
      const ending = ` ${suffix.toLowerCase()}`;
      if (lower.endsWith(ending) && lower.length > ending.length) {
        return { sampler: trimmed.slice(0, -ending.length), scheduleType: label };
      }
    }
  }
  return { sampler: trimmed, scheduleType: null };
}

/** A ComfyUI sampler_name + scheduler in A1111's spelling; names A1111 lacks stay as they are. */
export function a1111SamplerFromComfy(
  samplerName: string,
  scheduler: string,
): { sampler: string; scheduleType: string } {
  const sampler = A1111_SAMPLERS.find(([, comfy]) => comfy === samplerName)?.[0] ?? samplerName;
  const scheduleType = A1111_SCHEDULE_TYPES.find(([, comfy]) => comfy === scheduler)?.[0] ?? scheduler;
  return { sampler, scheduleType };
}

/**
 * The site's sampler option for an A1111 sampler + schedule type: "DPM++ 2M" + "Karras" is "DPM++ 2M Karras"
 * where the site lists that, else "DPM++ 2M"; null when the site offers neither.
 */
export function siteSamplerFor(info: A1111Sampler, options: readonly string[]): string | null {
  const find = (name: string) => options.find((option) => option.toLowerCase() === name.toLowerCase()) ?? null;
  const schedule = info.scheduleType && info.scheduleType !== 'Automatic' ? info.scheduleType : null;
  if (schedule) {
    const combined = find(`${info.sampler} ${schedule}`);
    if (combined) return combined;
  }
  const plain = find(info.sampler);
  if (plain) return plain;
  const comfy = A1111_SAMPLERS.find(([a1111]) => a1111 === info.sampler)?.[1];
  return comfy ? find(comfy) : null;
}

/** ControlNet control modes as the extension writes them, indexed 0 均衡, 1 更注重提示词, 2 更注重控制图. */
export const CONTROLNET_CONTROL_MODES = ['Balanced', 'My prompt is more important', 'ControlNet is more important'];

/** A checkpoint or LoRA name as A1111's `Model` shows it: the file's base name, no folder, extension or [hash]. */
export function modelBaseName(name: string): string {
  const withoutHash = name.replace(/\s*\[[0-9a-fA-F]{6,}\]\s*$/, '');
  const base = withoutHash.split(/[\\/]/).pop() ?? withoutHash;
  return base.replace(/\.(safetensors|ckpt|pt|pth|bin|gguf)$/i, '');
}

/** The short hash in an A1111 checkpoint title, `name.safetensors [6ce0161689]`. */
export function modelHashInTitle(title: string): string | null {
  return /\[([0-9a-fA-F]{8,10})\]\s*$/.exec(title)?.[1]?.toLowerCase() ?? null;
}
