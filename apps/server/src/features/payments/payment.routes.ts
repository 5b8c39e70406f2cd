import {
  adminOrderDetailSchema,
  adminOrderFilterSchema,
  adminOrderPageSchema,
  adminOrdersQuerySchema,
  createOrderBodySchema,
  myOrdersQuerySchema,
  orderPageSchema,
  orderWithBalanceSchema,
  payAgainBodySchema,
  payOrderResultSchema,
  reconciliationQuerySchema,
  reconciliationRunBodySchema,
  reconciliationSchema,
  refundBodySchema,
  refundResultSchema,
  wechatAuthorizeQuerySchema,
  wechatAuthorizeSchema,
  wechatOpenidBodySchema,
  wechatOpenidSchema,
} from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { ok } from '../../platform/envelope.js';
import { notFound } from '../../platform/errors.js';
import { idParams, perMinute, reply } from '../../platform/route-schemas.js';
import { originOf } from '../audit/audit-recorder.js';
import type { OrderService } from './order.service.js';
import type { OrderAdminService } from './order-admin.service.js';
import type { Settlement } from './settlement.js';
import type { WechatOAuthService } from './wechat-oauth.service.js';

type Deps = {
  orders: OrderService;
  orderAdmin: OrderAdminService;
  settlement: Settlement;
  wechatOAuth: WechatOAuthService;
};

/** 套餐购买 for users: make or reuse an order and pay it, poll it, 我已支付, cancel, 我的订单; inside WeChat, the openid. */
export const paymentRoutes: FastifyPluginAsyncZod<Deps> = async (app, { orders, wechatOAuth }) => {
  const tags = ['支付'];
  app.post(
    '/pay/orders',
    {
      schema: {
        tags,
        summary: '下单（同一套餐的待支付订单会复用）',
        body: createOrderBodySchema,
        response: reply(payOrderResultSchema),
      },
      onRequest: app.requireUser,
      config: perMinute(30),
    },
    async (req) => ok(await orders.create(currentUser(req).id, req.body, originOf(req))),
  );
  app.get(
    '/pay/orders',
    {
      schema: { tags, summary: '我的订单', querystring: myOrdersQuerySchema, response: reply(orderPageSchema) },
      onRequest: app.requireUser,
    },
    async (req) => ok(await orders.list(currentUser(req).id, req.query)),
  );
  app.get(
    '/pay/orders/:id',
    {
      schema: { tags, summary: '订单状态与当前算力', params: idParams, response: reply(orderWithBalanceSchema) },
      onRequest: app.requireUser,
    },
    async (req) => ok(await orders.status(currentUser(req).id, req.params.id)),
  );
  app.post(
    '/pay/orders/:id/check',
    {
      schema: {
        tags,
        summary: '我已支付：向支付渠道查询并入账',
        params: idParams,
        response: reply(orderWithBalanceSchema),
      },
      onRequest: app.requireUser,
      config: perMinute(30),
    },
    async (req) => ok(await orders.check(currentUser(req).id, req.params.id)),
  );
  app.post(
    '/pay/orders/:id/pay',
    {
      schema: {
        tags,
        summary: '继续支付',
        params: idParams,
        body: payAgainBodySchema,
        response: reply(payOrderResultSchema),
      },
      onRequest: app.requireUser,
      config: perMinute(30),
    },
    async (req) =>
      ok(await orders.payAgain(currentUser(req).id, req.params.id, { ...req.body, clientIp: req.ip }, originOf(req))),
  );
  app.post(
    '/pay/orders/:id/cancel',
    {
      schema: { tags, summary: '取消待支付订单', params: idParams, response: reply(orderWithBalanceSchema) },
      onRequest: app.requireUser,
    },
    async (req) => ok(await orders.cancel(currentUser(req).id, req.params.id), '订单已取消'),
  );
  app.get(
    '/pay/wechat/authorize',
    {
      schema: {
        tags,
        summary: '微信内支付：公众号静默授权地址（snsapi_base）',
        querystring: wechatAuthorizeQuerySchema,
        response: reply(wechatAuthorizeSchema),
      },
      onRequest: app.requireUser,
    },
    async (req) => ok(wechatOAuth.authorizeUrl(req.query.returnPath, req.query.state)),
  );
  app.post(
    '/pay/wechat/openid',
    {
      schema: {
        tags,
        summary: '微信内支付：用授权码换取 openid',
        body: wechatOpenidBodySchema,
        response: reply(wechatOpenidSchema),
      },
      onRequest: app.requireUser,
      config: perMinute(30),
    },
    async (req) => ok(await wechatOAuth.openid(req.body.code)),
  );
};

/**
 * The channels' asynchronous notifications, with the raw body kept as it came: the signature covers the bytes
 * (Alipay: a form; WeChat Pay: JSON). No login: the signature is the proof.
 */
export const paymentNoticeRoutes: FastifyPluginAsyncZod<Deps> = async (app, { settlement }) => {
  const raw = (_req: unknown, body: string, done: (err: null, body: string) => void) => done(null, body);
  // Only in this plugin's scope: every other route keeps Fastify's JSON parser.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(
    ['application/x-www-form-urlencoded', 'application/json', 'text/plain'],
    { parseAs: 'string' },
    raw,
  );
  app.post(
    '/pay/notify/:channel',
    { schema: { tags: ['支付'], summary: '支付渠道异步通知', params: z.object({ channel: z.string().max(16) }) } },
    async (req, res) => {
      const answer = await settlement.notice(req.params.channel, {
        headers: req.headers,
        rawBody: typeof req.body === 'string' ? req.body : '',
      });
      if (!answer) throw notFound('支付渠道未开通');
      return res.status(answer.status).header('content-type', answer.contentType).send(answer.body);
    },
  );
};

/** 订单管理 for admins. */
export const paymentAdminRoutes: FastifyPluginAsyncZod<Deps> = async (app, { orderAdmin }) => {
  const tags = ['管理后台'];
  app.get(
    '/admin/orders',
    {
      schema: { tags, summary: '订单列表', querystring: adminOrdersQuerySchema, response: reply(adminOrderPageSchema) },
      onRequest: app.requireAdmin,
    },
    async (req) => ok(await orderAdmin.list(req.query)),
  );
  app.get(
    '/admin/orders/export',
    {
      schema: {
        tags,
        summary: '导出订单（CSV，UTF-8 带 BOM）',
        querystring: adminOrderFilterSchema,
        produces: ['text/csv'],
      },
      onRequest: app.requireAdmin,
    },
    async (req, res) => {
      const csv = await orderAdmin.exportCsv(req.query);
      const name = `orders-${new Date().toISOString().slice(0, 10)}.csv`;
      return res
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(csv);
    },
  );
  app.get(
    '/admin/orders/:id',
    {
      schema: {
        tags,
        summary: '订单详情（渠道数据、退款、审计）',
        params: idParams,
        response: reply(adminOrderDetailSchema),
      },
      onRequest: app.requireAdmin,
    },
    async (req) => ok(await orderAdmin.detail(req.params.id)),
  );
  app.post(
    '/admin/orders/:id/refund',
    {
      schema: {
        tags,
        summary: '退款（全部或部分）',
        params: idParams,
        body: refundBodySchema,
        response: reply(refundResultSchema),
      },
      onRequest: app.requireAdmin,
    },
    async (req) =>
      ok(await orderAdmin.refund(currentUser(req).id, req.params.id, req.body, originOf(req)), '退款已提交'),
  );
  app.get(
    '/admin/payments/reconciliation',
    {
      schema: {
        tags,
        summary: '对账结果',
        querystring: reconciliationQuerySchema,
        response: reply(reconciliationSchema),
      },
      onRequest: app.requireAdmin,
    },
    async (req) => ok(await orderAdmin.reconciliation(req.query.date)),
  );
  app.post(
    '/admin/payments/reconciliation',
    {
      schema: { tags, summary: '立即对账', body: reconciliationRunBodySchema, response: reply(reconciliationSchema) },
      onRequest: app.requireAdmin,
    },
    async (req) => ok(await orderAdmin.reconcile(req.body.date), '对账完成'),
  );
};
