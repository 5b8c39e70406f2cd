import {
  AUDIT_ACTION_LABELS,
  AUDIT_CATEGORY_LABELS,
  AUDIT_ROLE_LABELS,
  type AuditEntry,
  CREDIT_REASON_LABELS,
  GENERATE_MODE_LABELS,
} from '@huafang/contracts';
import { ENGINE_LABELS } from '../../model/engine-labels';

/** One line of an entry's detail: a Chinese name and its value; `block` values are multi-line (shown as code). */
export interface AuditDetailRow {
  key: string;
  label: string;
  value: string;
  block?: boolean;
}

const TARGET_LABELS: Record<string, string> = {
  user: '用户',
  work: '作品',
  generation: '生成任务',
  template: '模板',
  task: '任务',
  backend: '推理后端',
  model: '模型',
  model_group: '模型分组',
  combo: '套餐',
  sensitive_word: '敏感词',
  prompt_word: '提示词',
  invite_code: '邀请码',
  help: '帮助反馈',
  agreement: '协议',
  compliance: '合规设置',
};
const LOGIN_METHODS: Record<string, string> = { password: '账号密码', sms: '短信验证码' };
const CREDIT_REASONS: Record<string, string> = CREDIT_REASON_LABELS;

/** The names of the detail fields the server writes (audit recorder callers); others show under their own key. */
const FIELD_LABELS: Record<string, string> = {
  account: '账号',
  route: '接口',
  status: '应答状态',
  error: '错误',
  params: '路径参数',
  query: '查询参数',
  body: '请求内容',
  jobId: '作业编号',
  mode: '生成方式',
  templateName: '模板',
  prompt: '提示词',
  negativePrompt: '反向提示词',
  sourcePrompt: '用户写的提示词（译前）',
  sourceNegativePrompt: '用户写的反向提示词（译前）',
  modelId: '模型编号',
  checkpoint: '模型文件',
  engine: '推理引擎',
  backend: '推理后端',
  imageCount: '生成数量',
  produced: '完成张数',
  outputs: '生成的图片',
  cost: '消耗算力',
  delta: '变动',
  balance: '变动后余额',
  ref: '关联',
  generationId: '生成任务编号',
  public: '删除时已公开',
  wasPublic: '此前已公开',
  hidePrompt: '隐藏提示词',
  filter: '筛选条件',
  targetName: '对象名称',
  field: '内容',
  rows: '导出条数',
};

/** Fields whose name depends on the action. */
function labelOf(entry: AuditEntry, key: string): string {
  if (key === 'method') return entry.action.startsWith('auth.') ? '登录方式' : '请求方法';
  if (key === 'reason') return entry.action === 'credits.change' ? '原因' : '失败原因';
  return FIELD_LABELS[key] ?? key;
}

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

function plain(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'boolean') return value ? '是' : '否';
  if (typeof value === 'number' || typeof value === 'string') return String(value);
  return null;
}

/** A known field's value in words (账号密码, +10 点, 文生图), or null to show it as it is. */
function wordsOf(entry: AuditEntry, key: string, value: unknown): string | null {
  if (typeof value === 'string') {
    if (key === 'method' && entry.action.startsWith('auth.')) return LOGIN_METHODS[value] ?? value;
    if (key === 'reason' && entry.action === 'credits.change') return CREDIT_REASONS[value] ?? value;
    if (key === 'mode') return GENERATE_MODE_LABELS[value as keyof typeof GENERATE_MODE_LABELS] ?? value;
    if (key === 'engine') return ENGINE_LABELS[value as keyof typeof ENGINE_LABELS] ?? value;
  }
  if (typeof value === 'number') {
    if (key === 'delta') return `${signed(value)} 点`;
    if (key === 'balance' || key === 'cost') return `${value} 点`;
    if (key === 'imageCount' || key === 'produced') return `${value} 张`;
    if (key === 'rows') return `${value} 条`;
  }
  if (key === 'error' && value && typeof value === 'object' && 'msg' in value) {
    const { code, msg } = value as { code?: unknown; msg?: unknown };
    return code === undefined ? String(msg) : `${String(msg)}（${String(code)}）`;
  }
  if (key === 'outputs' && Array.isArray(value)) {
    return value
      .map((output: { produceId?: unknown; sha256?: unknown }) => `${output.produceId ?? ''}  ${output.sha256 ?? ''}`)
      .join('\n');
  }
  return null;
}

const isEmpty = (value: unknown) =>
  value === null ||
  value === undefined ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && Object.keys(value as object).length === 0);

/** The entry's detail as named lines, in the order the server wrote them; empty fields are left out. */
export function auditDetailRows(entry: AuditEntry): AuditDetailRow[] {
  const rows: AuditDetailRow[] = [];
  for (const [key, value] of Object.entries(entry.detail)) {
    if (isEmpty(value)) continue;
    const words = wordsOf(entry, key, value) ?? plain(value);
    const label = labelOf(entry, key);
    if (words !== null) rows.push({ key, label, value: words, block: words.includes('\n') });
    else rows.push({ key, label, value: JSON.stringify(value, null, 2), block: true });
  }
  return rows;
}

const SUMMARY_MAX = 60;

function cut(text: string): string {
  return text.length > SUMMARY_MAX ? `${text.slice(0, SUMMARY_MAX)}…` : text;
}

/** One line for the table: the part of the detail an admin scans for (a prompt, a route, a balance). */
export function auditSummary(entry: AuditEntry): string {
  const { detail } = entry;
  const str = (key: string) => (typeof detail[key] === 'string' ? (detail[key] as string) : '');
  const num = (key: string) => (typeof detail[key] === 'number' ? (detail[key] as number) : null);
  switch (entry.action.split('.')[0]) {
    case 'auth': {
      const method = LOGIN_METHODS[str('method')] ?? '';
      const parts = [method, str('account') && `账号 ${str('account')}`, str('reason')].filter(Boolean);
      return cut(parts.join('，'));
    }
    case 'generation':
      return cut(str('prompt') || str('templateName'));
    case 'work':
      return cut(str('prompt'));
    case 'credits': {
      const delta = num('delta');
      const balance = num('balance');
      const reason = CREDIT_REASONS[str('reason')] ?? str('reason');
      if (delta === null) return reason;
      return `${reason} ${signed(delta)} 点${balance === null ? '' : `，余额 ${balance} 点`}`;
    }
    case 'admin': {
      if (entry.action === 'admin.audit_export') {
        const rows = num('rows');
        return rows === null ? '' : `导出 ${rows} 条`;
      }
      const status = num('status');
      return cut([str('method'), str('route'), status === null ? '' : `→ ${status}`].filter(Boolean).join(' '));
    }
    case 'moderation':
      return cut([str('field'), str('prompt')].filter(Boolean).join('：'));
    default:
      return '';
  }
}

export function actionLabel(entry: AuditEntry): string {
  return AUDIT_ACTION_LABELS[entry.action] ?? entry.action;
}

export function roleLabel(entry: AuditEntry): string {
  return AUDIT_ROLE_LABELS[entry.role] ?? entry.role;
}

export function categoryLabel(entry: AuditEntry): string {
  const category = entry.action.split('.')[0] as keyof typeof AUDIT_CATEGORY_LABELS;
  return AUDIT_CATEGORY_LABELS[category] ?? category;
}

/** 模板「水墨山水」 01H…: the object the entry concerns, named when the entry knows its name, or null. */
export function targetText(entry: AuditEntry): string | null {
  if (!entry.targetType && !entry.targetId) return null;
  const type = entry.targetType ? (TARGET_LABELS[entry.targetType] ?? entry.targetType) : '';
  const named = entry.targetName ? `${type}「${entry.targetName}」` : type;
  return [named, entry.targetId].filter(Boolean).join(' ');
}

/** Tag colours per category, so a page of entries can be scanned by kind. */
export const CATEGORY_COLORS: Record<string, string> = {
  auth: 'blue',
  generation: 'purple',
  work: 'cyan',
  credits: 'gold',
  admin: 'red',
  moderation: 'volcano',
};

export function actionColor(entry: AuditEntry): string {
  const color = CATEGORY_COLORS[entry.action.split('.')[0] ?? ''];
  const failed = entry.action.endsWith('_failed') || entry.action === 'generation.failed';
  return failed || entry.action === 'moderation.refused' ? 'error' : (color ?? 'default');
}
