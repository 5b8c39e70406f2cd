import { z } from 'zod';
import { isVisibleText } from './fields.js';

/**
 * AIGC labels (GB 45438-2025 《网络安全技术 人工智能生成合成内容标识方法》): the settings of 合规设置 and what
 * the web needs to show the badge. docs/compliance.md says what the product does with them.
 */

/** Where the visible mark sits: the standard wants it on an edge or a corner of the picture. */
export const MARK_POSITIONS = ['bottomRight', 'bottomLeft', 'topRight', 'topLeft'] as const;
export const markPositionSchema = z.enum(MARK_POSITIONS, { error: '标识位置须为右下角、左下角、右上角或左上角' });
export type MarkPosition = z.infer<typeof markPositionSchema>;
export const MARK_POSITION_LABELS: Record<MarkPosition, string> = {
  bottomRight: '右下角',
  bottomLeft: '左下角',
  topRight: '右上角',
  topLeft: '左上角',
};

export const MARK_TEXT_MAX = 12;
export const LABEL_CODE_MAX = 64;

/**
 * Characters the standard's Annex E allows in the values of the implicit label: printable ASCII without the space,
 * `"` and `\` (GB 18030 code points 0x21, 0x23–0x5B, 0x5D–0x7E). A Chinese company name falls outside, so the
 * operator enters a code (统一社会信用代码, a filing number, or a name in Latin letters).
 */
export const LABEL_CODE_PATTERN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

const labelCodeOf = (label: string) =>
  z
    .string({ error: `请填写${label}` })
    .trim()
    .max(LABEL_CODE_MAX, `${label}不能超过 ${LABEL_CODE_MAX} 个字符`)
    .refine(
      (value) => value === '' || LABEL_CODE_PATTERN.test(value),
      `${label}只能包含英文字母、数字和英文符号，不能有空格、双引号或反斜杠`,
    );

/** The standard's explicit label for images is text with an AI element and a generation element, e.g. AI生成. */
export const isAigcMarkText = (text: string) => /AI|人工智能/i.test(text) && /生成|合成/.test(text);

/** 合规设置: GET and POST /api/admin/compliance. */
export const complianceSettingsSchema = z.object({
  /** ContentProducer of the implicit label: the operator's name or code. */
  producer: labelCodeOf('服务提供者名称或编码').refine((value) => value !== '', '请填写服务提供者名称或编码'),
  /** ContentPropagator, written when an image leaves the service; empty means the producer's code. */
  propagator: labelCodeOf('传播服务提供者名称或编码'),
  /** Text of the visible mark and of the web's badge. */
  markText: z
    .string({ error: '请填写标识文字' })
    .trim()
    .min(1, '请填写标识文字')
    .max(MARK_TEXT_MAX, `标识文字不能超过 ${MARK_TEXT_MAX} 个字`)
    .refine(isVisibleText, '标识文字不能包含控制字符或不可见字符')
    .refine(isAigcMarkText, '标识文字须同时包含“AI”或“人工智能”与“生成”或“合成”，如“AI生成”'),
  markPosition: markPositionSchema,
  /** Draw the visible mark on images leaving the service (downloads, zips, public and shared links). */
  markEnabled: z.boolean({ error: '请选择是否添加显式标识' }),
});
export type ComplianceSettings = z.infer<typeof complianceSettingsSchema>;

export const DEFAULT_COMPLIANCE_SETTINGS: ComplianceSettings = {
  producer: 'Huafang',
  propagator: '',
  markText: 'AI生成',
  markPosition: 'bottomRight',
  markEnabled: true,
};

/** GET /api/app/configs/aigcLabel (no login): the badge the galleries show on every work. */
export const aigcBadgeSchema = z.object({ text: z.string() });
export type AigcBadge = z.infer<typeof aigcBadgeSchema>;
