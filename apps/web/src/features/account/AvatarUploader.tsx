import { LoadingOutlined, PlusOutlined } from '@ant-design/icons';
import { IMAGE_MIME_TYPES, type UploadResult } from '@huafang/contracts';
import { Avatar, Upload, type UploadProps } from 'antd';
import { useState } from 'react';
import { uploadFile } from '../../services/files';
import { toast } from '../../services/notices';

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
  const [uploading, setUploading] = useState(false);

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) {
      toast('请选择 PNG、JPG、WebP 或 GIF 图片');
      return Upload.LIST_IGNORE;
    }
    if (file.size > AVATAR_MAX_MB * 1024 * 1024) {
      toast(`图片不能超过 ${AVATAR_MAX_MB} MB`);
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps['customRequest'] = ({ file, onSuccess, onError }) => {
    if (typeof file === 'string') return;
    setUploading(true);
    uploadFile(file, 'name' in file ? file.name : undefined)
      .then((result) => {
        onChange?.(result);
        onSuccess?.(result);
      })
      .catch((error: Error) => onError?.(error))
      .finally(() => setUploading(false));
  };

  const previewUrl = value?.url ?? currentUrl ?? undefined;

  return (
    <Upload
      accept={IMAGE_MIME_TYPES.join(',')}
      showUploadList={false}
      beforeUpload={beforeUpload}
      customRequest={customRequest}
    >
      <button type="button" className="hf-avatar-picker" aria-label="上传头像">
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
