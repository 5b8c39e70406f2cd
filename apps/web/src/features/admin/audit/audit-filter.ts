import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  AUDIT_CATEGORIES,
  AUDIT_CATEGORY_LABELS,
  type AuditAction,
  type AuditCategory,
  type AuditFilter,
} from '@huafang/contracts';
import { displayZoneOffset } from '../../../common/dayjs';

/** A day of the date range as the picker holds it (a Dayjs). */
interface Day {
  format(template: string): string;
}

/** The fields of the 审计日志 filter form; `kind` is a category (`auth`) or one action (`auth.login`). */
export interface AuditFilterValues {
  days?: [Day | null, Day | null] | null;
  userId?: string;
  mobile?: string;
  kind?: string;
  ip?: string;
  apiKeyId?: string;
}

export interface KindOption {
  label: string;
  value: string;
}

/**
 * The 操作 select: per category, first the whole category (全部生成) and then each of its actions, so the admin can
 * pick either with one list and type to search it.
 */
export const KIND_OPTIONS: { label: string; title: string; options: KindOption[] }[] = AUDIT_CATEGORIES.map(
  (category) => ({
    label: AUDIT_CATEGORY_LABELS[category],
    title: AUDIT_CATEGORY_LABELS[category],
    options: [
      { label: `全部${AUDIT_CATEGORY_LABELS[category]}`, value: category },
      ...AUDIT_ACTIONS.filter((action) => action.startsWith(`${category}.`)).map((action) => ({
        label: AUDIT_ACTION_LABELS[action],
        value: action,
      })),
    ],
  }),
);

const isAction = (kind: string): kind is AuditAction => (AUDIT_ACTIONS as string[]).includes(kind);
const isCategory = (kind: string): kind is AuditCategory => (AUDIT_CATEGORIES as string[]).includes(kind);

function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * The query of GET /api/admin/audit-log (and of its export) for the form's values: blank fields are left out, the
 * days are in the display zone (Beijing time), so its offset goes with them.
 */
export function auditFilterOf(values: AuditFilterValues, tzOffset: number = displayZoneOffset()): AuditFilter {
  const filter: AuditFilter = { tzOffset };
  const [from, to] = values.days ?? [];
  if (from) filter.dateFrom = from.format('YYYY-MM-DD');
  if (to) filter.dateTo = to.format('YYYY-MM-DD');
  const userId = text(values.userId);
  if (userId) filter.userId = userId;
  const mobile = text(values.mobile);
  if (mobile) filter.mobile = mobile;
  const kind = values.kind ?? '';
  if (isAction(kind)) filter.action = kind;
  else if (isCategory(kind)) filter.category = kind;
  const ip = text(values.ip);
  if (ip) filter.ip = ip;
  const apiKeyId = text(values.apiKeyId);
  if (apiKeyId) filter.apiKeyId = apiKeyId;
  return filter;
}

/** Whether the filter narrows anything (the time-zone offset alone does not). */
export function isFiltered(filter: AuditFilter): boolean {
  return Object.entries(filter).some(([key, value]) => key !== 'tzOffset' && value !== undefined);
}
