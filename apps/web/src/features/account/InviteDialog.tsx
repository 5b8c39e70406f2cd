import { inviteCodeSchema } from '@huafang/contracts';
import { Form, Input, Typography } from 'antd';
import { DialogActions } from '../../common/DialogActions';
import { AccountModal } from './AccountModal';
import { useAccountFlow } from './use-account-flow';
import { useSubmit } from './use-submit';
import { zodRule } from './zod-rule';

/**
 * The optional invite step after a user's login without an invite (spec §4): accept → /draw, 暂不填写 → /omnibus.
 * Creating does not need an invite (docs/accounts.md), and the words say so.
 */
export function InviteDialog() {
  const [form] = Form.useForm<{ inviteCode: string }>();
  const { submitting, submit, error } = useSubmit();
  const flow = useAccountFlow();

  const onFinish = ({ inviteCode }: { inviteCode: string }) => submit(() => flow.acceptInvite(inviteCode.trim()));

  return (
    <AccountModal name="invite" title="填写邀请码" onCancel={flow.declineInvite} width={420} mask={{ closable: false }}>
      <Typography.Paragraph type="secondary">
        邀请码是选填的，没有邀请码也可以创作。有邀请码就在这里填写，新手邀请码还会带你看一遍新手引导。
      </Typography.Paragraph>
      <Form form={form} onFinish={onFinish} size="large" layout="vertical" requiredMark={false}>
        <Form.Item name="inviteCode" label="邀请码" rules={[zodRule(inviteCodeSchema)]}>
          <Input placeholder="请输入邀请码" maxLength={32} autoFocus />
        </Form.Item>
        <DialogActions
          submitLabel="确定"
          submitting={submitting}
          onCancel={flow.declineInvite}
          cancelLabel="暂不填写"
          error={error}
        />
      </Form>
    </AccountModal>
  );
}
