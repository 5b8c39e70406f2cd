import { LoadingOutlined, PlusOutlined } from '@ant-design/icons';
import type { UploadResult } from '@huafang/contracts';
import { Avatar, Upload } from 'antd';
import { useImageUpload } from '../upload/use-image-upload';
import './account-dialogs.css';

export const AVATAR_MAX_MB = 5;

interface AvatarUploaderProps {
  /** The uploaded image; a form field value. */
  value?: UploadResult;
  onChange?: (value: UploadResult) => void;
  /** Shown until something is uploaded, e.g. the current avatar. */
  currentUrl?: string | null;
}

/** Picks an image, uploads it at once and previews it; the fileId goes to the form. */
export function AvatarUploader({ value, onChange, currentUrl }: AvatarUploaderProps) {
  const { uploading, uploadProps } = useImageUpload(AVATAR_MAX_MB, (result) => onChange?.(result));

  const previewUrl = value?.url ?? currentUrl ?? undefined;

  return (
    <Upload {...uploadProps}>
      <button type="button" className="hf-upload-picker hf-avatar-picker" aria-label="上传头像">
        {uploading ? (
          <LoadingOutlined className="hf-avatar-picker-icon" />
        ) : previewUrl ? (
          <Avatar src={previewUrl} size={88} alt="头像预览" />
        ) : (
          <PlusOutlined className="hf-avatar-picker-icon" />
        )}
        <span className="hf-avatar-picker-text">{uploading ? '上传中…' : previewUrl ? '更换图片' : '上传头像'}</span>
      </button>
    </Upload>
  );
}
