import type { z } from 'zod';

/**
 * zod's generic messages in Chinese, for fields whose contract gives no message of its own. zod's zh-CN locale
 * leaves type names (boolean, string), origins and patterns in English; a user reads these, so none of that here.
 */
const TYPE_NAMES: Record<string, string> = {
  string: '字符串',
  number: '数字',
  int: '整数',
  bigint: '整数',
  boolean: '布尔值',
  symbol: '符号',
  undefined: '空',
  null: '空值',
  nan: '非数字',
  object: '对象',
  array: '数组',
  tuple: '数组',
  record: '对象',
  date: '日期',
  file: '文件',
  function: '函数',
  map: '映射',
  set: '集合',
  promise: '异步值',
  literal: '固定值',
  enum: '可选值',
};

const FORMAT_NAMES: Record<string, string> = {
  email: '电子邮箱地址',
  url: '网址',
  datetime: '日期时间',
  date: '日期',
  time: '时间',
  duration: '时长',
  ipv4: 'IPv4 地址',
  ipv6: 'IPv6 地址',
  cidrv4: 'IPv4 网段',
  cidrv6: 'IPv6 网段',
  base64: 'Base64 编码',
  base64url: 'Base64 编码',
  json_string: 'JSON 文本',
};

/** The kind of a value as a user would name it. */
function typeOf(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (typeof input === 'number' && Number.isNaN(input)) return 'nan';
  return typeof input;
}

const typeName = (type: string) => TYPE_NAMES[type] ?? '其他类型';
const valueText = (value: unknown) => (typeof value === 'string' ? `"${value}"` : String(value));
const boundText = (bound: number | bigint | Date) =>
  bound instanceof Date ? bound.toISOString().slice(0, 10) : bound.toString();

/** One generic issue in Chinese; the field's name goes before it (server error handler). */
export function chineseZodMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return '不能为空';
      return `应为${typeName(issue.expected)}，实际为${typeName(typeOf(issue.input))}`;
    case 'invalid_value':
      if (issue.input === undefined) return '不能为空';
      return issue.values.length === 1
        ? `应为 ${valueText(issue.values[0])}`
        : `应为以下之一：${issue.values.map(valueText).join('、')}`;
    case 'too_big': {
      const bound = boundText(issue.maximum);
      if (issue.origin === 'string') return `不能超过 ${bound} 个字符`;
      if (issue.origin === 'array' || issue.origin === 'set') return `不能超过 ${bound} 项`;
      if (issue.origin === 'file') return `不能超过 ${bound} 字节`;
      if (issue.origin === 'date') return `不能晚于 ${bound}`;
      return issue.inclusive ? `不能大于 ${bound}` : `应小于 ${bound}`;
    }
    case 'too_small': {
      const bound = boundText(issue.minimum);
      if (issue.origin === 'string') return issue.minimum === 1 ? '不能为空' : `至少 ${bound} 个字符`;
      if (issue.origin === 'array' || issue.origin === 'set') return `至少 ${bound} 项`;
      if (issue.origin === 'file') return `至少 ${bound} 字节`;
      if (issue.origin === 'date') return `不能早于 ${bound}`;
      return issue.inclusive ? `不能小于 ${bound}` : `应大于 ${bound}`;
    }
    case 'invalid_format': {
      if (issue.format === 'starts_with' && 'prefix' in issue) return `应以 "${issue.prefix}" 开头`;
      if (issue.format === 'ends_with' && 'suffix' in issue) return `应以 "${issue.suffix}" 结尾`;
      if (issue.format === 'includes' && 'includes' in issue) return `应包含 "${issue.includes}"`;
      const name = FORMAT_NAMES[issue.format];
      return name ? `应为有效的${name}` : '格式不正确';
    }
    case 'not_multiple_of':
      return `应为 ${issue.divisor.toString()} 的倍数`;
    case 'unrecognized_keys':
      return `包含不支持的字段：${issue.keys.join('、')}`;
    case 'invalid_key':
      return '包含无效的键';
    case 'invalid_element':
      return '包含无效的值';
    default:
      return '格式不正确';
  }
}
