import type { AdminOrderFilter, OrderStatus, PaymentChannelName } from '@huafang/contracts';

/** A day of the date range as the picker holds it (a Dayjs). */
interface Day {
  format(template: string): string;
}

/** The fields of the 订单管理 filter form. */
export interface OrderFilterValues {
  status?: OrderStatus;
  channel?: PaymentChannelName;
  user?: string;
  orderId?: string;
  days?: [Day | null, Day | null] | null;
  review?: boolean;
}

function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** The query of GET /api/admin/orders (and of its export) for the form's values: blank fields are left out. */
export function orderFilterOf(values: OrderFilterValues): AdminOrderFilter {
  const filter: AdminOrderFilter = {};
  if (values.status) filter.status = values.status;
  if (values.channel) filter.channel = values.channel;
  const user = text(values.user);
  if (user) filter.user = user;
  const orderId = text(values.orderId);
  if (orderId) filter.orderId = orderId;
  const [from, to] = values.days ?? [];
  if (from) filter.dateFrom = from.format('YYYY-MM-DD');
  if (to) filter.dateTo = to.format('YYYY-MM-DD');
  if (values.review) filter.review = 'true';
  return filter;
}

export function isOrderFiltered(filter: AdminOrderFilter): boolean {
  return Object.values(filter).some((value) => value !== undefined);
}
