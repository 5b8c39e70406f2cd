import { MSG, nicknameSchema } from '@huafang/contracts';
import { Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { toast } from '../../services/notices';
import { updateNickname } from '../../services/user';
import { useSession } from '../../stores/session';
import { loadCurrentUser } from './current-user';
import { zodRule } from './zod-rule';

export function EditNicknameDialog() {
  const open = useSession((state) => state.dialogs.editNickname);
  const nickname = useSession((state) => state.userData?.nickname ?? '');
  const closeDialog = useSession((state) => state.closeDialog);
  const [submitting, setSubmitting] = useState(false);

  async function onFinish(values: { nickname: string }) {
    setSubmitting(true);
    try {
      await updateNickname(values.nickname.trim());
      toast(MSG.set, 'success');
      closeDialog('editNickname');
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
      title="修改昵称"
      onCancel={() => closeDialog('editNickname')}
      footer={null}
      width={420}
      destroyOnHidden
      centered
    >
      <Form layout="vertical" onFinish={onFinish} initialValues={{ nickname }} requiredMark={false}>
        <Form.Item name="nickname" label="新昵称" rules={[zodRule(nicknameSchema)]}>
          <Input placeholder="2–16 个字符" maxLength={16} showCount autoFocus />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          保存
        </Button>
      </Form>
    </Modal>
  );
}
