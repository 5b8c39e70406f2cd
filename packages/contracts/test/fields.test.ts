import { describe, expect, it } from 'vitest';
import {
  agreementBodySchema,
  apiKeyCreateBodySchema,
  backendBodySchema,
  comboPlanBodySchema,
  createInviteCodeBodySchema,
  maskMobile,
  mobileSchema,
  modelBodySchema,
  modelGroupBodySchema,
  nicknameSchema,
  passwordSchema,
  promptGroupItemSchema,
  promptWordBodySchema,
  sendCodeBodySchema,
  taskBodySchema,
  taskStepInputSchema,
  templateRenameBodySchema,
  templateSaveBodySchema,
} from '../src/index.js';

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

  it('holds every name shown in the product to the nickname rule: visible characters only', () => {
    const names = [
      ['模板名称', templateSaveBodySchema.shape.name],
      ['模板名称', templateRenameBodySchema.shape.name],
      ['任务名称', taskBodySchema.shape.name],
      ['步骤名称', taskStepInputSchema.shape.name],
      ['模型名称', modelBodySchema.shape.modelName],
      ['基础模型', modelBodySchema.shape.baseModel],
      ['分组名称', modelGroupBodySchema.shape.name],
      ['后端名称', backendBodySchema.shape.name],
      ['套餐名称', comboPlanBodySchema.shape.name],
      ['中文标签', promptWordBodySchema.shape.label],
      ['标题', agreementBodySchema.shape.title],
    ] as const;
    for (const [label, schema] of names) {
      expect(schema.safeParse('  山水 ').data, label).toBe('山水');
      for (const bad of ['山\u0000水', '\u202eexe.jpg', '\u200b\u200b', '\u2066山\u2069', '山\ufeff水']) {
        expect(messageOf(schema.safeParse(bad)), `${label} ${JSON.stringify(bad)}`).toBe(
          `${label}不能包含控制字符或不可见字符`,
        );
      }
      expect(messageOf(schema.safeParse('   ')), label).toBe(`请填写${label}`);
    }
    expect(messageOf(nicknameSchema.safeParse('\u202e画坊用户'))).toBe('昵称不能包含控制字符或不可见字符');
    expect(messageOf(comboPlanBodySchema.shape.features.safeParse(['高清\u0000']))).toBe(
      '每条权益不能包含控制字符或不可见字符',
    );
    expect(messageOf(createInviteCodeBodySchema.shape.remark.safeParse('\u202e备注'))).toBe(
      '备注不能包含控制字符或不可见字符',
    );
  });

  it('refuses names made only of characters that show nothing, and keeps visible names with such characters', () => {
    const blanks = [
      '\uffa0\uffa0\uffa0',
      '\u034f\u034f\u034f',
      '\u3164\u3164',
      '\u2800\u2800',
      '\ufe0f\ufe0f',
      '\u{e0041}\u{e0042}',
    ];
    const names = [
      ['昵称', nicknameSchema],
      ['密钥名称', apiKeyCreateBodySchema.shape.name],
      ['分组名称', modelGroupBodySchema.shape.name],
      ['套餐名称', comboPlanBodySchema.shape.name],
      ['后端名称', backendBodySchema.shape.name],
    ] as const;
    for (const [label, schema] of names) {
      for (const blank of blanks) {
        expect(messageOf(schema.safeParse(blank)), `${label} ${JSON.stringify(blank)}`).toMatch(
          new RegExp(`^${label}不能(包含控制字符或不可见字符|只由不可见字符组成)$`),
        );
      }
      expect(schema.safeParse('❤️画坊').success, label).toBe(true);
    }
    const word = (groupName: string) => promptGroupItemSchema.safeParse({ id: 'p1', groupName, promptText: 'x' });
    expect(messageOf(word('\uffa0\u034f'))).toBe('提示词不能只由不可见字符组成');
    expect(word('山水').success).toBe(true);
  });
});
