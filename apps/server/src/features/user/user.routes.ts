import {
  bindMobileBodySchema,
  currentUserSchema,
  inviteCodeBodySchema,
  MSG,
  perfectInfoBodySchema,
  setPasswordBodySchema,
  unbindMobileBodySchema,
  updateAccountBodySchema,
  updateAvatarBodySchema,
  updateNicknameBodySchema,
  updatePwdBodySchema,
  userStatusSchema,
} from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { doneAfter, ok } from '../../platform/envelope.js';
import { reply, replyEmpty } from '../../platform/route-schemas.js';
import type { UserService } from './user.service.js';

const tags = ['用户'];

export const userRoutes: FastifyPluginAsyncZod<{ users: UserService }> = async (app, { users }) => {
  app.addHook('onRequest', app.requireUser);

  app.get('/user/status', { schema: { tags, summary: '邀请状态', response: reply(userStatusSchema) } }, async (req) =>
    ok(await users.status(currentUser(req).id)),
  );

  app.get(
    '/user/currentUser',
    { schema: { tags, summary: '当前用户信息', response: reply(currentUserSchema) } },
    async (req) => ok(await users.current(currentUser(req).id)),
  );

  app.post(
    '/user/perfectInfo',
    { schema: { tags, summary: '完善资料', body: perfectInfoBodySchema, response: reply(userStatusSchema) } },
    async (req) => ok(await users.perfectInfo(currentUser(req).id, req.body), MSG.set),
  );

  app.post(
    '/user/invite/code',
    { schema: { tags, summary: '填写邀请码', body: inviteCodeBodySchema, response: reply(userStatusSchema) } },
    async (req) => ok(await users.redeemInvite(currentUser(req).id, req.body.inviteCode), '邀请码使用成功'),
  );

  app.post(
    '/user/invite/skip',
    { schema: { tags, summary: '暂不填写邀请码（之后登录不再询问）', response: replyEmpty } },
    async (req) => doneAfter(users.skipInvite(currentUser(req).id), MSG.set),
  );

  app.post(
    '/user/update/account',
    { schema: { tags, summary: '修改账号（只能修改一次）', body: updateAccountBodySchema, response: replyEmpty } },
    async (req) => doneAfter(users.renameAccount(currentUser(req).id, req.body.account), MSG.set),
  );

  app.post(
    '/user/set/password',
    { schema: { tags, summary: '设置密码', body: setPasswordBodySchema, response: replyEmpty } },
    async (req) => doneAfter(users.setPassword(currentUser(req).id, req.body.password), MSG.set),
  );

  app.post(
    '/user/update/pwd',
    {
      schema: {
        tags,
        summary: '修改密码（所有设备需重新登录，个人 API 密钥全部吊销）',
        body: updatePwdBodySchema,
        response: replyEmpty,
      },
    },
    async (req) =>
      doneAfter(
        users.updatePassword(currentUser(req).id, req.body.oldPassword, req.body.newPassword),
        '密码已修改，请重新登录',
      ),
  );

  app.post(
    '/user/update/nickname',
    { schema: { tags, summary: '修改昵称', body: updateNicknameBodySchema, response: replyEmpty } },
    async (req) => doneAfter(users.updateNickname(currentUser(req).id, req.body.nickname), MSG.set),
  );

  app.post(
    '/user/update/avatar',
    {
      schema: {
        tags,
        summary: '修改头像',
        body: updateAvatarBodySchema,
        response: reply(z.object({ avatar: z.string() })),
      },
    },
    async (req) => ok(await users.updateAvatar(currentUser(req).id, req.body.avatar), MSG.set),
  );

  app.post(
    '/user/bind/mobile',
    { schema: { tags, summary: '绑定手机号', body: bindMobileBodySchema, response: replyEmpty } },
    async (req) => doneAfter(users.bindMobile(currentUser(req).id, req.body.mobile, req.body.code), MSG.bound),
  );

  app.post(
    '/user/unbind/mobile',
    { schema: { tags, summary: '解绑手机号', body: unbindMobileBodySchema, response: replyEmpty } },
    async (req) => doneAfter(users.unbindMobile(currentUser(req).id, req.body.code), '解绑成功'),
  );
};
