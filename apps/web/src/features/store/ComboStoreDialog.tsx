import { CustomerServiceOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Modal, Skeleton } from 'antd';
import { useEffect } from 'react';
import { storeQueries } from '../../services/store';
import { useSession } from '../../stores/session';
import { ComboPlanCard } from './ComboPlanCard';
import { useComboStoreDialog } from './combo-store-state';
import './combo-store.css';

/** The store answers the live balance: the header badge follows it, so both say the same number. */
function useHeaderCreditsSync(credits: number | undefined) {
  useEffect(() => {
    const { userData, setUserData } = useSession.getState();
    if (credits !== undefined && userData && userData.credits !== credits) setUserData({ ...userData, credits });
  }, [credits]);
}

function StorePlans() {
  const store = useQuery(storeQueries.store());
  useHeaderCreditsSync(store.data?.credits);
  const openDialog = useSession((state) => state.openDialog);
  const hide = useComboStoreDialog((state) => state.hide);

  if (store.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (store.isError) {
    return (
      <Empty description="套餐加载失败">
        <Button onClick={() => void store.refetch()}>重试</Button>
      </Empty>
    );
  }

  const { credits, notice, plans } = store.data;
  // The product takes no payment: the way to a plan is a message through 帮助与反馈.
  const contact = () => {
    hide();
    openDialog('help');
  };
  return (
    <>
      <div className="hf-store-balance">
        <ThunderboltOutlined />
        当前剩余 <strong>{credits.toLocaleString('zh-CN')}</strong> 点算力
      </div>
      {plans.length > 0 ? (
        <div className="hf-store-plans">
          {plans.map((plan) => (
            <ComboPlanCard key={plan.id} plan={plan} />
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
