import { mobileSchema } from '@huafang/contracts';
import { Button, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { toast } from '../../services/notices';
import { unbindMobile } from '../../services/user';
import { useSession } from '../../stores/session';
import { loadCurrentUser } from './current-user';
import { matchesMaskedMobile } from './mobile-match';
import { SmsCodeField } from './SmsCodeField';
import { zodRule } from './zod-rule';

/** Unbinding needs a code sent to the current mobile; afterwards the bind dialog opens (spec §4). */
export function UnbindMobileDialog() {
  const open = useSession((state) => state.dialogs.unbindMobile);
  const masked = useSession((state) => state.userData?.mobile ?? null);
  const closeDialog = useSession((state) => state.closeDialog);
  const [form] = Form.useForm<{ mobile: string; code: string }>();
  const [submitting, setSubmitting] = useState(false);

  async function onFinish(values: { code: string }) {
    setSubmitting(true);
    try {
      await unbindMobile(values.code.trim());
      toast('解绑成功', 'success');
      await loadCurrentUser();
      useSession.getState().openDialog('bindMobile');
    } catch {
      // The request layer has shown the failure.
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Modal
      open={open}
      title="解绑手机"
      onCancel={() => closeDialog('unbindMobile')}
      footer={null}
      width={420}
      destroyOnHidden
      centered
    >
      <Typography.Paragraph type="secondary">
        当前绑定的手机号为 <Typography.Text strong>{masked}</Typography.Text>
        。为确认是本人操作，请输入完整的手机号并获取验证码。解绑后可绑定新的手机号。
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item
          name="mobile"
          label="当前手机号"
          rules={[
            zodRule(mobileSchema),
            {
              validator: async (_rule, value: string | undefined) => {
                if (value && !matchesMaskedMobile(value, masked)) throw new Error('与当前绑定的手机号不一致');
              },
            },
          ]}
        >
          <Input placeholder="请输入完整的手机号" maxLength={11} inputMode="tel" autoFocus />
        </Form.Item>
        <SmsCodeField form={form} scene="unbind" label="验证码" />
        <Button type="primary" danger htmlType="submit" block loading={submitting}>
          确认解绑
        </Button>
      </Form>
    </Modal>
  );
}
