import { MSG, nicknameSchema } from '@huafang/contracts';
import { Form, Input } from 'antd';
import { FormSubmit } from '../../common/FormSubmit';
import { toast } from '../../services/notices';
import { updateNickname } from '../../services/user';
import { useSession } from '../../stores/session';
import { AccountModal } from './AccountModal';
import { loadCurrentUser } from './current-user';
import { useSubmit } from './use-submit';
import { zodRule } from './zod-rule';

export function EditNicknameDialog() {
  const nickname = useSession((state) => state.userData?.nickname ?? '');
  const closeDialog = useSession((state) => state.closeDialog);
  const { submitting, submit, error } = useSubmit();

  const onFinish = (values: { nickname: string }) =>
    submit(async () => {
      await updateNickname(values.nickname.trim());
      toast(MSG.set, 'success');
      closeDialog('editNickname');
      await loadCurrentUser();
    });

  return (
    <AccountModal name="editNickname" title="修改昵称" width={420}>
      <Form layout="vertical" onFinish={onFinish} initialValues={{ nickname }} requiredMark={false}>
        <Form.Item name="nickname" label="新昵称" rules={[zodRule(nicknameSchema)]}>
          <Input placeholder="2–16 个字符" maxLength={16} showCount autoFocus />
        </Form.Item>
        <FormSubmit label="保存" submitting={submitting} error={error} />
      </Form>
    </AccountModal>
  );
}
