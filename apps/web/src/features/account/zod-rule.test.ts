import { mobileSchema, nicknameSchema, passwordSchema } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { optionalText, zodMessage } from './zod-rule';

describe('zodMessage', () => {
  it('returns the contracts Chinese message of the first problem', () => {
    expect(zodMessage(mobileSchema, '123')).toBe('手机号格式不正确，请输入 11 位中国大陆手机号');
    expect(zodMessage(mobileSchema, undefined)).toBe('请输入手机号');
    expect(zodMessage(passwordSchema, 'abcdefgh')).toBe('密码必须同时包含字母和数字');
    expect(zodMessage(nicknameSchema, '小')).toBe('昵称长度至少 2 个字符');
  });

  it('returns null for valid input', () => {
    expect(zodMessage(mobileSchema, '13912345678')).toBeNull();
    expect(zodMessage(passwordSchema, 'abc12345')).toBeNull();
  });
});

describe('optionalText', () => {
  it('drops blank input', () => {
    expect(optionalText(undefined)).toBeUndefined();
    expect(optionalText('   ')).toBeUndefined();
    expect(optionalText(' ABCD ')).toBe('ABCD');
  });
});
