import { inviteCodeSchema } from '@huafang/contracts';
import { Button, Form, Input, Space, Typography } from 'antd';
import { AccountModal } from './AccountModal';
import { useAccountFlow } from './use-account-flow';
import { useSubmit } from './use-submit';
import { zodRule } from './zod-rule';

/** The invite step after a login without an accepted invite: accept → /draw, 暂不填写 → /omnibus. */
export function InviteDialog() {
  const [form] = Form.useForm<{ inviteCode: string }>();
  const { submitting, submit } = useSubmit();
  const flow = useAccountFlow();

  const onFinish = ({ inviteCode }: { inviteCode: string }) => submit(() => flow.acceptInvite(inviteCode.trim()));

  return (
    <AccountModal name="invite" title="填写邀请码" onCancel={flow.declineInvite} width={420} mask={{ closable: false }}>
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
    </AccountModal>
  );
}
