import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeValidationIssue } from '../../src/platform/error-handler.js';

describe('validation messages name the field in Chinese', () => {
  it("keeps the contract's own message, which already names the field", () => {
    expect(describeValidationIssue({ instancePath: '/mobile', message: '手机号格式不正确' }, 'body')).toBe(
      '手机号格式不正确',
    );
  });

  it("puts the field's Chinese name before zod's generic message", () => {
    const result = z.object({ nickname: z.string() }).safeParse({ nickname: 3 });
    const issue = result.error?.issues[0];
    const message = describeValidationIssue({ instancePath: '/nickname', message: issue?.message }, 'body');
    expect(message).toBe('昵称：应为字符串，实际为数字');
  });

  it('falls back to the request part when no field is known', () => {
    const result = z.string().safeParse(1);
    expect(describeValidationIssue({ instancePath: '', message: result.error?.issues[0]?.message }, 'body')).toMatch(
      /^请求内容：/,
    );
  });

  const genericMessage = (schema: z.ZodType, input: unknown, path: string) => {
    const issue = schema.safeParse(input).error?.issues[0];
    return describeValidationIssue({ instancePath: path, message: issue?.message }, 'body');
  };

  it("translates zod's type names: no English word in a generic message", () => {
    expect(genericMessage(z.boolean(), 'true', '/enabled')).toBe('启用：应为布尔值，实际为字符串');
    const cases: [z.ZodType, unknown][] = [
      [z.string(), 1],
      [z.number(), 'x'],
      [z.number(), Number.NaN],
      [z.number().int(), 1.5],
      [z.array(z.string()), {}],
      [z.object({}), []],
      [z.boolean(), null],
      [z.string(), undefined],
      [z.string().max(3), 'abcd'],
      [z.string().min(2), 'a'],
      [z.array(z.string()).max(1), ['a', 'b']],
      [z.number().max(10), 11],
      [z.number().gt(0), 0],
      [z.number().multipleOf(5), 7],
      [z.email(), 'x'],
      [z.url(), 'x'],
      [z.iso.datetime(), 'x'],
      [z.string().regex(/^[a-z]+$/), '1'],
      [z.enum(['a', 'b']), undefined],
      [z.union([z.string(), z.number()]), true],
      [z.date().max(new Date('2020-01-01')), new Date('2021-01-01')],
    ];
    for (const [schema, input] of cases) {
      const message = genericMessage(schema, input, '/pageSize');
      expect(message, JSON.stringify(input)).toMatch(/^每页条数：/);
      expect(message, message).not.toMatch(/[A-Za-z]/);
    }
    // Values the client must send are quoted as they are.
    expect(genericMessage(z.string().startsWith('https://'), 'x', '/url')).toBe('地址：应以 "https://" 开头');
    expect(genericMessage(z.enum(['public', 'private']), 'x', '/visibility')).toBe(
      '可见范围：应为以下之一："public"、"private"',
    );
  });

  it('never names a field by its English key: an unlabelled field falls back to the request part', () => {
    expect(genericMessage(z.object({ constructor: z.string() }), { constructor: 1 }, '/constructor')).toBe(
      '请求内容：应为字符串，实际为数字',
    );
  });
});
