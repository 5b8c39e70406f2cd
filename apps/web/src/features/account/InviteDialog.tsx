import { inviteCodeSchema } from '@huafang/contracts';
import { Button, Form, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useSession } from '../../stores/session';
import { useAccountFlow } from './use-account-flow';
import { zodRule } from './zod-rule';

/** The invite step after a login without an accepted invite: accept → /draw, 暂不填写 → /omnibus. */
export function InviteDialog() {
  const open = useSession((state) => state.dialogs.invite);
  const [form] = Form.useForm<{ inviteCode: string }>();
  const [submitting, setSubmitting] = useState(false);
  const flow = useAccountFlow();

  async function onFinish({ inviteCode }: { inviteCode: string }) {
    setSubmitting(true);
    try {
      await flow.acceptInvite(inviteCode.trim());
    } catch {
      // The request layer has shown why the code was refused.
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Modal
      open={open}
      title="填写邀请码"
      onCancel={flow.declineInvite}
      footer={null}
      width={420}
      mask={{ closable: false }}
      destroyOnHidden
      centered
    >
      <Typography.Paragraph type="secondary">填写邀请码即可开始创作；也可以先去灵感广场逛逛。</Typography.Paragraph>
      <Form form={form} onFinish={onFinish} size="large">
        <Form.Item name="inviteCode" rules={[zodRule(inviteCodeSchema)]}>
          <Input placeholder="请输入邀请码" maxLength={32} autoFocus />
        </Form.Item>
        <Space className="hf-dialog-actions">
          <Button onClick={flow.declineInvite}>暂不填写</Button>
          <Button type="primary" htmlType="submit" loading={submitting}>
            确定
          </Button>
        </Space>
      </Form>
    </Modal>
  );
}
