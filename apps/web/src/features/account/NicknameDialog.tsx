import { inviteCodeSchema, nicknameSchema, type UploadResult } from '@huafang/contracts';
import { Form, Input } from 'antd';
import { FormSubmit } from '../../common/FormSubmit';
import { perfectInfo } from '../../services/user';
import { AccountModal } from './AccountModal';
import { AvatarUploader } from './AvatarUploader';
import { useAccountFlow } from './use-account-flow';
import { useSubmit } from './use-submit';
import { optionalText, zodRule } from './zod-rule';
import './account-dialogs.css';

interface ProfileValues {
  nickname: string;
  avatar?: UploadResult;
  inviteCode?: string;
}

/**
 * 完善资料 after registration; with an invite code it continues as accepting the invite (spec §4), without one it
 * resumes what the guest was doing (else /omnibus).
 */
export function NicknameDialog() {
  const [form] = Form.useForm<ProfileValues>();
  const { submitting, submit, error } = useSubmit();
  const flow = useAccountFlow();

  const onFinish = (values: ProfileValues) =>
    submit(async () => {
      const inviteCode = optionalText(values.inviteCode);
      await perfectInfo({ nickname: values.nickname.trim(), avatar: values.avatar?.fileId, inviteCode });
      if (inviteCode) await flow.acceptInvite(inviteCode);
      else await flow.completeProfile();
    });

  return (
    <AccountModal name="nickname" title="完善资料" width={440} mask={{ closable: false }}>
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item name="avatar" label="头像（选填）" className="hf-center-item">
          <AvatarUploader />
        </Form.Item>
        <Form.Item name="nickname" label="昵称" rules={[zodRule(nicknameSchema)]}>
          <Input placeholder="2–16 个字符" maxLength={16} showCount autoFocus />
        </Form.Item>
        <Form.Item
          name="inviteCode"
          label="邀请码（选填）"
          extra="没有可不填；填写后直接进入创作页"
          rules={[zodRule(inviteCodeSchema, { optional: true })]}
        >
          <Input placeholder="请输入邀请码" maxLength={32} />
        </Form.Item>
        <FormSubmit label="完成" submitting={submitting} error={error} />
      </Form>
    </AccountModal>
  );
}
