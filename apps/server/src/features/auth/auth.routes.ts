import {
  accountLoginBodySchema,
  loginResultSchema,
  MSG,
  mobileLoginBodySchema,
  mobileLoginOrSignUpResultSchema,
  rePasswordBodySchema,
  reVerifyBodySchema,
  reVerifyResultSchema,
  sendCodeBodySchema,
  sendCodeResultSchema,
  signUpBodySchema,
  signUpResultSchema,
  unregisteredSchema,
} from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';
import { currentSessionId } from '../../platform/auth/auth.plugin.js';
import { doneAfter, ok } from '../../platform/envelope.js';
import { perMinute, reply, replyEmpty } from '../../platform/route-schemas.js';
import { originOf } from '../audit/audit-recorder.js';
import type { AuthService } from './auth.service.js';

const tags = ['认证'];
const loginReply = reply(loginResultSchema.or(unregisteredSchema));

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService; rateLimit: Config['rateLimit'] }> = async (
  app,
  { auth, rateLimit },
) => {
  app.post(
    '/auth/sendCode',
    {
      schema: { tags, summary: '发送短信验证码', body: sendCodeBodySchema, response: reply(sendCodeResultSchema) },
      config: perMinute(rateLimit.sendCode),
    },
    async (req) => ok(await auth.sendCode(req.body.mobile, req.body.scene), '验证码已发送'),
  );

  app.post(
    '/auth/mobile',
    {
      schema: { tags, summary: '手机号验证码登录', body: mobileLoginBodySchema, response: loginReply },
      config: perMinute(rateLimit.login),
    },
    async (req) => ok(await auth.loginByMobile(req.body.mobile, req.body.code, originOf(req)), MSG.loginSuccess),
  );

  app.post(
    '/auth/mobile/loginOrSignUp',
    {
      schema: {
        tags,
        summary: '手机号验证码登录，未注册的手机号自动注册（一步完成，密码可稍后设置）',
        body: mobileLoginBodySchema,
        response: reply(mobileLoginOrSignUpResultSchema),
      },
      config: perMinute(rateLimit.login),
    },
    async (req) => {
      const result = await auth.loginOrSignUpByMobile(req.body.mobile, req.body.code, originOf(req));
      return ok(result, result.created ? '注册成功' : MSG.loginSuccess);
    },
  );

  app.post(
    '/auth/account',
    {
      schema: { tags, summary: '账号密码登录', body: accountLoginBodySchema, response: loginReply },
      config: perMinute(rateLimit.login),
    },
    async (req) => ok(await auth.loginByAccount(req.body.account, req.body.password, originOf(req)), MSG.loginSuccess),
  );

  app.post(
    '/auth/signUp',
    {
      schema: { tags, summary: '完成注册', body: signUpBodySchema, response: reply(signUpResultSchema) },
      config: perMinute(rateLimit.signUp),
    },
    async (req) => ok(await auth.signUp(req.body, originOf(req)), '注册成功'),
  );

  app.post(
    '/auth/reVerify',
    {
      schema: {
        tags,
        summary: '验证手机号以重置密码',
        body: reVerifyBodySchema,
        response: reply(reVerifyResultSchema),
      },
      config: perMinute(rateLimit.login),
    },
    async (req) => ok(await auth.reVerify(req.body.mobile, req.body.code), '验证成功'),
  );

  app.post(
    '/auth/rePassword',
    {
      schema: {
        tags,
        summary: '重置密码（所有设备需重新登录，个人 API 密钥全部吊销）',
        body: rePasswordBodySchema,
        response: replyEmpty,
      },
      config: perMinute(rateLimit.login),
    },
    async (req) => doneAfter(auth.rePassword(req.body.token, req.body.password), '密码已重置，请重新登录'),
  );

  app.post(
    '/auth/outLogin',
    { schema: { tags, summary: '退出登录', response: replyEmpty }, onRequest: app.requireUser },
    async (req) => doneAfter(auth.logout(currentSessionId(req)), '已退出登录'),
  );
};
