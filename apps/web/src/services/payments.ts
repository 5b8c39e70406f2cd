import type {
  AdminOrderDetail,
  AdminOrderFilter,
  CreateOrderBody,
  Order,
  OrderStatus,
  OrderWithBalance,
  Page,
  PageQuery,
  PayAgainBody,
  PayOrderResult,
  Reconciliation,
  RefundBody,
  RefundResult,
  WechatAuthorize,
  WechatAuthorizeQuery,
  WechatOpenid,
} from '@huafang/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { http, requestBlob } from './request';

/** How often an order with a refund still in progress is read again while an admin looks at it. */
const REFUND_POLL_MS = 3000;

const orderPath = (id: string) => `/api/pay/orders/${encodeURIComponent(id)}`;
const adminOrderPath = (id: string) => `/api/admin/orders/${encodeURIComponent(id)}`;

/** 套餐商店 › 支付: a new order for the plan (or the user's pending one) and how to pay it. */
export function createOrder(body: CreateOrderBody) {
  return http.post<PayOrderResult>('/api/pay/orders', body);
}

/** 我的订单 › 继续支付: how to pay a pending order now. */
export function payAgain(id: string, body: PayAgainBody) {
  return http.post<PayOrderResult>(`${orderPath(id)}/pay`, body);
}

/** Inside WeChat: the official account's silent authorisation address, which comes back to `returnPath`. */
export function fetchWechatAuthorize(query: WechatAuthorizeQuery) {
  return http.get<WechatAuthorize>('/api/pay/wechat/authorize', query);
}

/** Inside WeChat: the code WeChat came back with, for the buyer's openid. */
export function exchangeWechatCode(code: string) {
  return http.post<WechatOpenid>('/api/pay/wechat/openid', { code });
}

/** The result page's poll: the order as the server has it, quietly (the page shows a failure itself). */
export function fetchOrder(id: string) {
  return http.get<OrderWithBalance>(orderPath(id), undefined, { quiet: true });
}

/** 我已支付: the server asks the channel first and settles what it says is paid. */
export function checkOrder(id: string) {
  return http.post<OrderWithBalance>(`${orderPath(id)}/check`);
}

/** 取消订单: closes a pending order here and at the channel. */
export function cancelOrder(id: string) {
  return http.post<OrderWithBalance>(`${orderPath(id)}/cancel`);
}

export function fetchMyOrders(query: { current: number; pageSize: number; status?: OrderStatus }) {
  return http.get<Page<Order>>('/api/pay/orders', query);
}

export function fetchAdminOrders(filter: AdminOrderFilter, page: PageQuery) {
  return http.get<Page<AdminOrderDetail['order']>>('/api/admin/orders', { ...filter, ...page });
}

export function fetchAdminOrder(id: string) {
  return http.get<AdminOrderDetail>(adminOrderPath(id));
}

export function refundOrder(id: string, body: RefundBody) {
  return http.post<RefundResult>(`${adminOrderPath(id)}/refund`, body);
}

/** 导出 CSV: the orders the filter matches, read with the bearer header (an <a href> cannot send it). */
export function downloadOrdersCsv(filter: AdminOrderFilter) {
  return requestBlob('/api/admin/orders/export', { params: filter });
}

export function fetchReconciliation(date?: string) {
  return http.get<Reconciliation>('/api/admin/payments/reconciliation', date ? { date } : undefined);
}

export function runReconciliation(date?: string) {
  return http.post<Reconciliation>('/api/admin/payments/reconciliation', date ? { date } : {});
}

export const paymentKeys = {
  order: (id: string) => ['pay', 'order', id] as const,
  mine: ['pay', 'orders'] as const,
  admin: ['admin', 'orders'] as const,
  adminList: (filter: AdminOrderFilter) => [...paymentKeys.admin, 'list', filter] as const,
  adminOrder: (id: string) => [...paymentKeys.admin, 'detail', id] as const,
  reconciliation: (date: string | undefined) => ['admin', 'reconciliation', date ?? 'yesterday'] as const,
};

export const paymentQueries = {
  mine: (current: number, pageSize: number) =>
    queryOptions({
      queryKey: [...paymentKeys.mine, current, pageSize],
      queryFn: () => fetchMyOrders({ current, pageSize }),
      staleTime: 0,
      placeholderData: keepPreviousData,
    }),
  adminOrder: (id: string) =>
    queryOptions({
      queryKey: paymentKeys.adminOrder(id),
      queryFn: () => fetchAdminOrder(id),
      staleTime: 0,
      // WeChat answers a refund with PROCESSING and notifies the outcome later: read it again until it is known.
      refetchInterval: (query) =>
        query.state.data?.refunds.some((refund) => refund.status === 'processing') ? REFUND_POLL_MS : false,
    }),
  reconciliation: (date: string | undefined) =>
    queryOptions({ queryKey: paymentKeys.reconciliation(date), queryFn: () => fetchReconciliation(date) }),
};
