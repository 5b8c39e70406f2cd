import type { ApiKeyScope, WebhookAttempt, WebhookDelivery, WebhookEventType } from '@huafang/contracts';

/** What each scope lets a program do, in the words of the page (docs/api.md § 权限范围). */
export const SCOPE_LABELS: Record<ApiKeyScope, { label: string; detail: string }> = {
  generate: { label: '生成图片', detail: '提交生成、预估、下一步、查询进度、中断，上传输入图片' },
  'works:read': { label: '读取作品', detail: '我的作品列表、作品详情与打包下载' },
};

/** The events an endpoint can subscribe to, and the 测试发送 event that only appears in the log. */
export const EVENT_LABELS: Record<WebhookEventType, { label: string; detail: string }> = {
  'generation.succeeded': { label: '生成成功', detail: '一次生成的一个步骤成功结束' },
  'generation.failed': { label: '生成失败', detail: '一个步骤失败，算力已退回' },
  'work.published': { label: '作品发布', detail: '作品从私有发布到灵感广场' },
  'order.paid': { label: '订单支付成功', detail: '购买套餐的订单已支付，算力已到账' },
  'order.refunded': { label: '订单退款', detail: '订单全部或部分退款，算力已扣回' },
};

const TEST_EVENT_LABEL = '测试发送';

/** A log row's event in Chinese; an event this page does not know yet keeps its wire name. */
export function eventLabel(type: string): string {
  if (type === 'webhook.test') return TEST_EVENT_LABEL;
  return EVENT_LABELS[type as WebhookEventType]?.label ?? type;
}

export const DELIVERY_STATUS: Record<WebhookDelivery['status'], { label: string; color: string }> = {
  pending: { label: '等待重试', color: 'processing' },
  succeeded: { label: '成功', color: 'success' },
  failed: { label: '失败', color: 'error' },
};

/** How a key is recognised in the list: its stored prefix and an ellipsis for the rest it never shows. */
export function maskedKey(prefix: string): string {
  return `${prefix}…`;
}

/** One try of a delivery in words: the endpoint's answer, or why there was none, and how long it took. */
export function attemptSummary(attempt: Pick<WebhookAttempt, 'statusCode' | 'error' | 'durationMs'>): string {
  // A failure's error already names the status it got ("接收地址应答 HTTP 500").
  const outcome = attempt.error ?? (attempt.statusCode === null ? '没有应答' : `应答 HTTP ${attempt.statusCode}`);
  return `${outcome}（${attempt.durationMs} 毫秒）`;
}
