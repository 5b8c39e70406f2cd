import type { AdminOrder, AdminOrderFilter } from '@huafang/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Tabs } from 'antd';
import { useState } from 'react';
import { PageHead } from '../../components/PageHead';
import { OrderDetailDrawer } from '../../features/admin/orders/OrderDetailDrawer';
import { OrderFilterForm } from '../../features/admin/orders/OrderFilterForm';
import { OrderTable } from '../../features/admin/orders/OrderTable';
import { isOrderFiltered } from '../../features/admin/orders/order-filter';
import { ReconciliationPanel } from '../../features/admin/orders/ReconciliationPanel';
import { useOrderExport } from '../../features/admin/orders/use-order-export';
import { useFilteredPagedQuery } from '../../features/admin/use-paged-query';
import { fetchAdminOrders, paymentKeys } from '../../services/payments';
import '../../features/admin/admin-pages.css';
import '../../features/admin/audit/audit-log.css';
import '../../features/admin/orders/orders.css';

function OrderList({ onShow }: { onShow: (order: AdminOrder) => void }) {
  const { exportCsv, exporting } = useOrderExport();
  const { filter, changeFilter, tableProps } = useFilteredPagedQuery<AdminOrderFilter, AdminOrder>(
    {},
    paymentKeys.adminList,
    fetchAdminOrders,
  );
  return (
    <>
      <OrderFilterForm onSearch={changeFilter} onExport={exportCsv} exporting={exporting} />
      <OrderTable
        tableProps={tableProps}
        emptyText={isOrderFiltered(filter) ? '没有符合条件的订单' : '暂无订单'}
        onShow={onShow}
      />
    </>
  );
}

/** 订单管理: every order, filtered and exported, its detail and refunds; 对账 lists what the channels disagree on. */
export default function OrdersPage() {
  const [shown, setShown] = useState<string | null>(null);
  const queryClient = useQueryClient();
  return (
    <div className="hf-page">
      <PageHead title="订单管理" />
      <div className="hf-panel hf-audit-panel">
        <Tabs
          items={[
            { key: 'orders', label: '订单', children: <OrderList onShow={(order) => setShown(order.id)} /> },
            { key: 'reconciliation', label: '对账', children: <ReconciliationPanel onOpenOrder={setShown} /> },
          ]}
        />
      </div>
      <OrderDetailDrawer
        orderId={shown}
        onClose={() => setShown(null)}
        onRefunded={() => void queryClient.invalidateQueries({ queryKey: paymentKeys.admin })}
      />
    </div>
  );
}
