import type { FormOption } from '@huafang/contracts';

/**
 * What the built-in demo engine (内置演示引擎) offers: samplers, ControlNet preprocessors and their models.
 * The generation issue puts these behind the engine interface; the option endpoints read them from here.
 */
export const BUILTIN_SAMPLERS = ['Euler a', 'Euler', 'DPM++ 2M Karras', 'DPM++ SDE Karras', 'DDIM', 'UniPC'];

export const BUILTIN_CONTROLNET_MODULES: FormOption[] = [
  {
    label: '无预处理',
    value: 'none',
    moduleName: 'none',
    fromConfig: JSON.stringify(['weight', 'guidanceStart', 'guidanceEnd']),
  },
  {
    label: 'Canny 边缘',
    value: 'canny',
    moduleName: 'canny',
    fromConfig: JSON.stringify(['processorRes', 'thresholdA', 'thresholdB', 'weight', 'guidanceStart', 'guidanceEnd']),
  },
  {
    label: '深度（亮度）',
    value: 'depth',
    moduleName: 'depth',
    fromConfig: JSON.stringify(['processorRes', 'weight', 'guidanceStart', 'guidanceEnd']),
  },
  {
    label: '线稿提取',
    value: 'lineart',
    moduleName: 'lineart',
    fromConfig: JSON.stringify(['processorRes', 'weight', 'guidanceStart', 'guidanceEnd', 'controlMode']),
  },
  {
    label: '反色（白底线稿）',
    value: 'invert',
    moduleName: 'invert',
    fromConfig: JSON.stringify(['weight', 'guidanceStart', 'guidanceEnd', 'controlMode']),
  },
];

export const BUILTIN_CONTROLNET_MODELS = [
  'control_v11p_sd15_canny',
  'control_v11f1p_sd15_depth',
  'control_v11p_sd15_lineart',
  'control_v11p_sd15s2_lineart_anime',
];

/** Width × height presets of the size select. */
export const SIZE_PRESETS: FormOption[] = [
  { label: '1:1 方形（512×512）', value: '512x512' },
  { label: '1:1 高清（768×768）', value: '768x768' },
  { label: '3:4 竖图（576×768）', value: '576x768' },
  { label: '4:3 横图（768×576）', value: '768x576' },
  { label: '9:16 手机壁纸（576×1024）', value: '576x1024' },
  { label: '16:9 横幅（1024×576）', value: '1024x576' },
];

/** The checkpoints the built-in demo engine paints with; each one names a painting style (see scene.ts). */
export const BUILTIN_CHECKPOINTS = [
  { title: 'builtin-realistic', name: '写实人像' },
  { title: 'builtin-product', name: '电商摄影' },
  { title: 'builtin-anime', name: '二次元插画' },
  { title: 'builtin-chibi', name: 'Q版萌系' },
  { title: 'builtin-ink', name: '水墨国风' },
  { title: 'builtin-gongbi', name: '工笔重彩' },
];

/**
 * The demo LoRAs the built-in engine has: each shifts the picture's palette or texture (styles.ts `applyLora`), by
 * its weight, so picking a style shows without a GPU. The seed offers them as enabled styles.
 */
export const BUILTIN_LORAS = [
  {
    title: 'hf_ink_wash',
    name: '水墨晕染',
    styleGroup: '国风',
    description: '墨色浓淡晕开，宣纸质感',
    triggerWords: ['ink wash painting', 'rice paper'],
  },
  {
    title: 'hf_neon',
    name: '霓虹光影',
    styleGroup: '潮流',
    description: '洋红与青色的霓虹色调',
    triggerWords: ['neon lights', 'cyberpunk'],
  },
  {
    title: 'hf_pastel',
    name: '粉彩柔光',
    styleGroup: '插画',
    description: '明亮柔和的粉彩色',
    triggerWords: ['pastel colors', 'soft light'],
  },
  {
    title: 'hf_sepia',
    name: '复古胶片',
    styleGroup: '摄影',
    description: '暖褐色调与胶片颗粒',
    triggerWords: ['vintage film', 'sepia'],
  },
] as const;
