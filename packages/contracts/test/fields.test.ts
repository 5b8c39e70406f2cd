import { describe, expect, it } from 'vitest';
import { maskMobile, mobileSchema, nicknameSchema, passwordSchema, sendCodeBodySchema } from '../src/index.js';

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('contracts: field rules shared by server and web', () => {
  it('masks the middle four digits of a mobile', () => {
    expect(maskMobile('13812345678')).toBe('138****5678');
  });

  it('accepts mainland mobiles only', () => {
    expect(mobileSchema.safeParse(' 13812345678 ').data).toBe('13812345678');
    for (const bad of ['12812345678', '1381234567', '138123456789', '+8613812345678']) {
      expect(messageOf(mobileSchema.safeParse(bad))).toBe('手机号格式不正确，请输入 11 位中国大陆手机号');
    }
  });

  it('requires passwords of 8–32 printable characters with letters and digits', () => {
    expect(passwordSchema.safeParse('Abcdefg1').success).toBe(true);
    expect(messageOf(passwordSchema.safeParse('Ab1'))).toBe('密码长度至少 8 位');
    expect(messageOf(passwordSchema.safeParse(`A1${'x'.repeat(31)}`))).toBe('密码长度不能超过 32 位');
    expect(messageOf(passwordSchema.safeParse('abcdefgh'))).toBe('密码必须同时包含字母和数字');
    expect(messageOf(passwordSchema.safeParse('密码密码密码12a'))).toBe('密码只能包含字母、数字和英文符号，不能有空格');
  });

  it('trims nicknames and refuses control or invisible characters', () => {
    expect(nicknameSchema.safeParse('  画坊用户 ').data).toBe('画坊用户');
    expect(messageOf(nicknameSchema.safeParse('a\u200bb'))).toBe('昵称不能包含控制字符或不可见字符');
    expect(messageOf(nicknameSchema.safeParse('很'.repeat(17)))).toBe('昵称长度不能超过 16 个字符');
  });

  it('defaults the code scene to login', () => {
    expect(sendCodeBodySchema.parse({ mobile: '13812345678' })).toEqual({ mobile: '13812345678', scene: 'login' });
  });
});
