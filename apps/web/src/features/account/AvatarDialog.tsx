import { MSG, type UploadResult } from '@huafang/contracts';
import { Button, Form, Modal, Typography } from 'antd';
import { useState } from 'react';
import { toast } from '../../services/notices';
import { updateAvatar } from '../../services/user';
import { useSession } from '../../stores/session';
import { AVATAR_MAX_MB, AvatarUploader } from './AvatarUploader';
import { loadCurrentUser } from './current-user';

export function AvatarDialog() {
  const open = useSession((state) => state.dialogs.avatar);
  const currentUrl = useSession((state) => state.userData?.avatar ?? null);
  const closeDialog = useSession((state) => state.closeDialog);
  const [submitting, setSubmitting] = useState(false);

  async function onFinish(values: { avatar?: UploadResult }) {
    if (!values.avatar) return;
    setSubmitting(true);
    try {
      await updateAvatar(values.avatar.fileId);
      toast(MSG.set, 'success');
      closeDialog('avatar');
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
      title="修改头像"
      onCancel={() => closeDialog('avatar')}
      footer={null}
      width={400}
      destroyOnHidden
      centered
    >
      <Form layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item
          name="avatar"
          className="hf-center-item"
          rules={[{ required: true, message: '请先上传一张图片' }]}
          extra={`支持 PNG、JPG、WebP、GIF，不超过 ${AVATAR_MAX_MB} MB`}
        >
          <AvatarUploader currentUrl={currentUrl} />
        </Form.Item>
        <Typography.Paragraph type="secondary" className="hf-center-text">
          点击图片选择新头像，预览满意后保存
        </Typography.Paragraph>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          保存
        </Button>
      </Form>
    </Modal>
  );
}
