import { type AdminUserItem, creditGrantBodySchema, MSG } from '@huafang/contracts';
import { Form, Input, InputNumber, Typography } from 'antd';
import { FormDialog } from '../../common/FormDialog';
import { grantCredits } from '../../services/admin';
import { toast } from '../../services/notices';
import { useSession } from '../../stores/session';
import { loadCurrentUser } from '../account/current-user';
import { useSubmit } from '../account/use-submit';
import { optionalText, zodRule } from '../account/zod-rule';
import { userLabel } from './format';

interface CreditGrantDialogProps {
  /** The user whose credits change; null keeps the dialog closed. */
  user: AdminUserItem | null;
  onClose: () => void;
  onGranted: () => void;
}

interface CreditGrantValues {
  amount: number;
  remark?: string;
}

const { shape } = creditGrantBodySchema;

/** 调整算力: a positive amount adds credits, a negative one takes them back. */
export function CreditGrantDialog({ user, onClose, onGranted }: CreditGrantDialogProps) {
  const { submitting, submit } = useSubmit();

  const onFinish = (values: CreditGrantValues) =>
    submit(async () => {
      if (!user) return;
      const result = await grantCredits({
        userId: user.userId,
        amount: values.amount,
        remark: optionalText(values.remark),
      });
      toast(`${MSG.set}，${userLabel(user)} 当前剩余 ${result.credits} 点`, 'success');
      onGranted();
      // An admin topping up their own account sees the header badge follow.
      if (useSession.getState().userData?.userId === user.userId) await loadCurrentUser();
    });

  return (
    <FormDialog<CreditGrantValues>
      open={user !== null}
      title="调整算力"
      width={440}
      onClose={onClose}
      submitLabel="确定"
      submitting={submitting}
      intro={
        user && (
          <Typography.Paragraph type="secondary">
            用户 <Typography.Text strong>{userLabel(user)}</Typography.Text> 当前剩余 {user.credits} 点
          </Typography.Paragraph>
        )
      }
      onFinish={onFinish}
    >
      <Form.Item name="amount" label="调整点数" extra="正数为增加，负数为扣减" rules={[zodRule(shape.amount)]}>
        <InputNumber precision={0} placeholder="例如：50 或 -20" className="hf-full-width" autoFocus />
      </Form.Item>
      <Form.Item name="remark" label="备注（选填）" rules={[zodRule(shape.remark, { optional: true })]}>
        <Input placeholder="例如：活动赠送" maxLength={100} />
      </Form.Item>
    </FormDialog>
  );
}
