import { CustomerServiceOutlined, ShoppingOutlined } from '@ant-design/icons';
import { Button, Modal, Typography } from 'antd';
import { useSession } from '../../stores/session';
import { openComboStore } from '../store/combo-store-state';
import type { GenerationStoreHook } from './use-generation';

/** Spec §4, §8: a 10004 answer opens this notice with the server's message (isApplyShow, applyMsg). */
export function QuotaNoticeDialog({ store }: { store: GenerationStoreHook }) {
  const open = store((state) => state.isApplyShow);
  const message = store((state) => state.applyMsg);
  const hideApply = store((state) => state.hideApply);
  const openDialog = useSession((state) => state.openDialog);

  return (
    <Modal
      open={open}
      title="算力不足"
      onCancel={hideApply}
      footer={[
        <Button
          key="help"
          icon={<CustomerServiceOutlined />}
          onClick={() => {
            hideApply();
            openDialog('help');
          }}
        >
          帮助与反馈
        </Button>,
        <Button
          key="store"
          type="primary"
          icon={<ShoppingOutlined />}
          onClick={() => {
            hideApply();
            openComboStore();
          }}
        >
          查看套餐
        </Button>,
      ]}
    >
      <Typography.Paragraph>{message || '剩余算力不足以完成这次生成。'}</Typography.Paragraph>
    </Modal>
  );
}
