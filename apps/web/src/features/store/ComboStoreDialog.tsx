import { CustomerServiceOutlined, ThunderboltOutlined } from '@ant-design/icons';
import type { ComboPlan } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Modal, Skeleton } from 'antd';
import { useState } from 'react';
import { storeQueries } from '../../services/store';
import { useSession } from '../../stores/session';
import { QrPayPanel } from '../payments/QrPayPanel';
import { useCheckout } from '../payments/use-checkout';
import { ComboPlanCard } from './ComboPlanCard';
import { useComboStoreDialog } from './combo-store-state';
import { StoreCheckout } from './StoreCheckout';
import { useHeaderCreditsSync } from './use-header-credits';
import './combo-store.css';

function StorePlans() {
  const store = useQuery(storeQueries.store());
  useHeaderCreditsSync(store.data?.credits);
  const openDialog = useSession((state) => state.openDialog);
  const hide = useComboStoreDialog((state) => state.hide);
  const [buying, setBuying] = useState<ComboPlan | null>(null);
  const checkout = useCheckout(hide);

  if (store.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (store.isError) {
    return (
      <Empty description="套餐加载失败">
        <Button onClick={() => void store.refetch()}>重试</Button>
      </Empty>
    );
  }

  const { credits, notice, plans, channels } = store.data;
  if (checkout.qr) return <QrPayPanel order={checkout.qr.order} codeUrl={checkout.qr.codeUrl} onDone={checkout.done} />;
  if (buying) {
    return <StoreCheckout plan={buying} channels={channels} checkout={checkout} onBack={() => setBuying(null)} />;
  }

  // Without a payment channel the way to a plan is a message through 帮助与反馈.
  const contact = () => {
    hide();
    openDialog('help');
  };
  const sellsOnline = channels.length > 0;
  return (
    <>
      <div className="hf-store-balance">
        <ThunderboltOutlined />
        当前剩余 <strong>{credits.toLocaleString('zh-CN')}</strong> 点算力
      </div>
      {plans.length > 0 ? (
        <div className="hf-store-plans">
          {plans.map((plan) => (
            <ComboPlanCard
              key={plan.id}
              plan={plan}
              onBuy={sellsOnline && plan.purchasable ? () => setBuying(plan) : undefined}
            />
          ))}
        </div>
      ) : (
        <Empty className="hf-store-empty" description="暂无可选套餐，请稍后再来" />
      )}
      {notice && (
        <Alert
          className="hf-store-notice"
          type="info"
          showIcon
          title={notice}
          action={
            <Button type="primary" icon={<CustomerServiceOutlined />} onClick={contact}>
              帮助与反馈
            </Button>
          }
        />
      )}
    </>
  );
}

/** 套餐商店, mounted once at the root; the header badge, the user menu and the quota notice open it. */
export function ComboStoreDialog() {
  const open = useComboStoreDialog((state) => state.open);
  const hide = useComboStoreDialog((state) => state.hide);
  const loggedIn = useSession((state) => Boolean(state.token));

  return (
    <Modal
      open={open && loggedIn}
      title="套餐商店"
      onCancel={hide}
      footer={null}
      width={960}
      destroyOnHidden
      className="hf-store"
    >
      <StorePlans />
    </Modal>
  );
}
