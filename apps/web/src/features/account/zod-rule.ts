import type { FormRule } from 'antd';
import type { z } from 'zod';

/** First message of a failed parse, or null when the value is valid. */
export function zodMessage(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  return result.error.issues[0]?.message ?? '格式不正确';
}

/**
 * An antd form rule that validates with a contracts schema, so the dialog shows the same Chinese message
 * the server would answer with. `optional` skips empty input for fields the user may leave blank.
 */
export function zodRule(schema: z.ZodType, options: { optional?: boolean } = {}): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      if (options.optional && (value === undefined || value === null || value === '')) return;
      const message = zodMessage(schema, value === null ? undefined : value);
      if (message) throw new Error(message);
    },
  };
}

/** Confirmation field rule: must equal the field named `field`. */
export function sameAsRule(field: string, message = '两次输入的密码不一致'): FormRule {
  return ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      if (!value) throw new Error('请再次输入密码');
      if (value !== getFieldValue(field)) throw new Error(message);
    },
  });
}

/** An optional text field: blank input becomes `undefined`, so it is left out of the request body. */
export function optionalText(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
