import type {
  Page,
  PageQuery,
  WebhookCreateBody,
  WebhookCreated,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookTestResult,
  WebhookUpdateBody,
} from '@huafang/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { http, requestEnvelope } from './request';

const id = encodeURIComponent;

/** The logged-in user's webhook endpoints (docs/api.md § Webhook). */
export function fetchWebhooks() {
  return http.get<WebhookEndpoint[]>('/api/user/webhooks');
}

/** The answer carries the signing secret, this once. */
export function createWebhook(body: WebhookCreateBody) {
  return http.post<WebhookCreated>('/api/user/webhooks', body);
}

/** Only the fields given change; `{enabled}` alone turns an endpoint on or off. */
export function updateWebhook(endpointId: string, body: WebhookUpdateBody) {
  return http.put<WebhookEndpoint>(`/api/user/webhooks/${id(endpointId)}`, body);
}

/** 重置密钥: the answer carries the new signing secret, this once; the old one stops at once. */
export function rotateWebhookSecret(endpointId: string) {
  return http.post<WebhookCreated>(`/api/user/webhooks/${id(endpointId)}/secret`);
}

/** Removes the endpoint with its delivery log. */
export function deleteWebhook(endpointId: string) {
  return http.delete<null>(`/api/user/webhooks/${id(endpointId)}`);
}

/**
 * 测试发送: one webhook.test event now. A failed try is still a successful request (code 0): the result says how
 * the endpoint answered, and the server's message says it in words.
 */
export function testWebhook(endpointId: string) {
  return requestEnvelope<WebhookTestResult>(`/api/user/webhooks/${id(endpointId)}/test`, { method: 'POST' });
}

export function fetchWebhookDeliveries(endpointId: string, page: PageQuery) {
  return http.get<Page<WebhookDelivery>>(`/api/user/webhooks/${id(endpointId)}/deliveries`, page);
}

export const webhookKeys = {
  list: ['user', 'webhooks'] as const,
  /** Every page of one endpoint's log, for invalidation after a 测试发送. */
  deliveries: (endpointId: string) => ['user', 'webhooks', endpointId, 'deliveries'] as const,
  deliveryPage: (endpointId: string, page: PageQuery) => [...webhookKeys.deliveries(endpointId), page] as const,
};

export const webhookQueries = {
  list: () => queryOptions({ queryKey: webhookKeys.list, queryFn: fetchWebhooks, staleTime: 0 }),
  /** Newest first; retries land while the log is open, so it is read again each time it is shown. */
  deliveries: (endpointId: string, page: PageQuery) =>
    queryOptions({
      queryKey: webhookKeys.deliveryPage(endpointId, page),
      queryFn: () => fetchWebhookDeliveries(endpointId, page),
      placeholderData: keepPreviousData,
      staleTime: 0,
    }),
};
