import { MSG, type UploadResult } from '@huafang/contracts';
import { Form, Typography } from 'antd';
import { FormSubmit } from '../../common/FormSubmit';
import { toast } from '../../services/notices';
import { updateAvatar } from '../../services/user';
import { useSession } from '../../stores/session';
import { AccountModal } from './AccountModal';
import { AVATAR_MAX_MB, AvatarUploader } from './AvatarUploader';
import { loadCurrentUser } from './current-user';
import { useSubmit } from './use-submit';
import './account-dialogs.css';

export function AvatarDialog() {
  const currentUrl = useSession((state) => state.userData?.avatar ?? null);
  const closeDialog = useSession((state) => state.closeDialog);
  const { submitting, submit, error } = useSubmit();

  async function onFinish({ avatar }: { avatar?: UploadResult }) {
    if (!avatar) return;
    await submit(async () => {
      await updateAvatar(avatar.fileId);
      toast(MSG.set, 'success');
      closeDialog('avatar');
      await loadCurrentUser();
    });
  }

  return (
    <AccountModal name="avatar" title="修改头像" width={400}>
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
        <FormSubmit label="保存" submitting={submitting} error={error} />
      </Form>
    </AccountModal>
  );
}
