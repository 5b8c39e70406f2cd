import { PageHead } from '../../components/PageHead';
import { MyOrderList } from '../../features/payments/MyOrderList';

/** 我的订单 (用户菜单): the plans the user bought or started to buy. */
export default function OrdersPage() {
  return (
    <div className="hf-page">
      <PageHead title="我的订单" />
      <div className="hf-panel">
        <MyOrderList />
      </div>
    </div>
  );
}
