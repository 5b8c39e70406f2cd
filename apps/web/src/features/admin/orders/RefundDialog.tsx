import { type AdminOrderDetail, formatFen, type RefundResult, refundBodySchema } from '@huafang/contracts';
import { Alert, App, Form, Input, InputNumber, Typography } from 'antd';
import { FormDialog } from '../../../common/FormDialog';
import { toast } from '../../../services/notices';
import { refundOrder } from '../../../services/payments';
import { useSubmit } from '../../account/use-submit';
import { zodRule } from '../../account/zod-rule';
import { creditsForRefund, fenToYuanText, yuanToFen } from '../../payments/pay-state';

interface RefundValues {
  yuan: string;
  reason: string;
}

interface RefundDialogProps {
  detail: AdminOrderDetail | null;
  open: boolean;
  onClose: () => void;
  onRefunded: (result: RefundResult) => void;
}

/**
 * 退款: all or part of what is left, with a reason. Before it is sent the admin sees how many unspent credits it takes
 * back, how many the buyer has already spent (those stay with the buyer), and confirms.
 */
export function RefundDialog({ detail, open, onClose, onRefunded }: RefundDialogProps) {
  const [form] = Form.useForm<RefundValues>();
  const { modal } = App.useApp();
  const { submitting, submit, error } = useSubmit();
  const preview = detail?.refundPreview ?? null;
  const yuan = Form.useWatch('yuan', form);
  const amountFen = yuanToFen(yuan) ?? 0;
  const taking = preview ? creditsForRefund(amountFen, preview.refundableFen, preview.creditsToTake) : 0;
  const short = preview ? Math.max(0, taking - preview.takeable) : 0;
  // A plan's credits with a validity may also have expired.
  const gone = detail?.order.validityDays === null ? '已用完' : '已用完或已过期';

  const send = (values: RefundValues, fen: number) =>
    submit(async () => {
      if (!detail) return;
      const result = await refundOrder(detail.order.id, { amountFen: fen, reason: values.reason });
      toast(`已提交退款 ${formatFen(result.refund.amountFen)}`, 'success');
      onRefunded(result);
    });

  const onFinish = (values: RefundValues) => {
    const fen = yuanToFen(values.yuan);
    if (fen === null || !preview) return;
    modal.confirm({
      title: `确认退款 ${formatFen(fen)}？`,
      content:
        short > 0
          ? `将收回 ${taking - short} 点算力；另有 ${short} 点用户${gone}，无法收回。退款提交后不能撤销。`
          : `将从用户账户收回 ${taking} 点算力。退款提交后不能撤销。`,
      okText: '确认退款',
      okButtonProps: { danger: true },
      cancelText: '取消',
      autoFocusButton: 'cancel',
      onOk: () => send(values, fen),
    });
  };

  const max = preview?.refundableFen ?? 0;
  return (
    <FormDialog<RefundValues>
      open={open && detail !== null}
      form={form}
      title="退款"
      width={480}
      onClose={onClose}
      submitLabel="退款"
      submitting={submitting}
      error={error}
      initialValues={{ yuan: fenToYuanText(max), reason: '' }}
      onFinish={onFinish}
      intro={
        detail &&
        preview && (
          <Typography.Paragraph type="secondary">
            订单 {detail.order.id} · {detail.order.planName} · 实付 {formatFen(detail.order.amountFen)}，可退{' '}
            {formatFen(preview.refundableFen)}。用户当前算力 {preview.balance} 点
            {detail.order.validityDays === null ? '' : `，其中该订单剩余 ${preview.takeable} 点`}。
          </Typography.Paragraph>
        )
      }
    >
      <Form.Item
        name="yuan"
        label="退款金额（元）"
        rules={[
          {
            validator: async (_rule, value: string | number | null) => {
              const fen = yuanToFen(value);
              if (fen === null) throw new Error('请填写退款金额，最多两位小数');
              if (fen > max) throw new Error(`最多可退 ${formatFen(max)}`);
            },
          },
        ]}
      >
        <InputNumber<string> stringMode min="0.01" max={fenToYuanText(max)} step="0.01" precision={2} prefix="¥" />
      </Form.Item>
      <Form.Item name="reason" label="退款原因" rules={[zodRule(refundBodySchema.shape.reason)]}>
        <Input maxLength={80} showCount placeholder="如：用户误购、重复支付" />
      </Form.Item>
      {preview && amountFen > 0 && (
        <Alert
          type={short > 0 ? 'warning' : 'info'}
          showIcon
          title={`本次退款将收回 ${taking - short} 点未使用的算力`}
          description={
            short > 0
              ? `用户${gone}其中 ${short} 点，无法收回：退款照常进行，订单标记为待核查。可在用户管理中调整算力，或与用户协商。`
              : '按退款金额占实付金额的比例收回算力，以服务器结果为准。'
          }
        />
      )}
    </FormDialog>
  );
}
