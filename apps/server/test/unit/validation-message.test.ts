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
    expect(message).toMatch(/^昵称：.*(无效|期望)/);
  });

  it('falls back to the request part when no field is known', () => {
    const result = z.string().safeParse(1);
    expect(describeValidationIssue({ instancePath: '', message: result.error?.issues[0]?.message }, 'body')).toMatch(
      /^请求内容：/,
    );
  });
});
