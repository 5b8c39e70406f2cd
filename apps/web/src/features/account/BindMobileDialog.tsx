import { MSG, mobileSchema } from '@huafang/contracts';
import { Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { toast } from '../../services/notices';
import { bindMobile } from '../../services/user';
import { useSession } from '../../stores/session';
import { loadCurrentUser } from './current-user';
import { SmsCodeField } from './SmsCodeField';
import { zodRule } from './zod-rule';

export function BindMobileDialog() {
  const open = useSession((state) => state.dialogs.bindMobile);
  const closeDialog = useSession((state) => state.closeDialog);
  const [form] = Form.useForm<{ mobile: string; code: string }>();
  const [submitting, setSubmitting] = useState(false);

  async function onFinish(values: { mobile: string; code: string }) {
    setSubmitting(true);
    try {
      await bindMobile(values.mobile.trim(), values.code.trim());
      toast(MSG.bound, 'success');
      closeDialog('bindMobile');
      await loadCurrentUser();
    } catch {
      // The request layer has shown the failure.
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Modal
      open={open}
      title="绑定手机"
      onCancel={() => closeDialog('bindMobile')}
      footer={null}
      width={420}
      destroyOnHidden
      centered
    >
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item name="mobile" label="手机号" rules={[zodRule(mobileSchema)]}>
          <Input placeholder="请输入手机号" maxLength={11} inputMode="tel" autoFocus />
        </Form.Item>
        <SmsCodeField form={form} scene="bind" label="验证码" />
        <Button type="primary" htmlType="submit" block loading={submitting}>
          绑定
        </Button>
      </Form>
    </Modal>
  );
}
