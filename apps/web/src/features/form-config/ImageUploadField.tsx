import { DeleteOutlined, LoadingOutlined, PlusOutlined } from '@ant-design/icons';
import { type FormConfigItem, IMAGE_MIME_TYPES } from '@huafang/contracts';
import { Button, Image, Upload, type UploadProps } from 'antd';
import { useState } from 'react';
import { fileUrl, uploadFile } from '../../services/files';
import { toast } from '../../services/notices';

const IMAGE_MAX_MB = 10;

interface ImageUploadFieldProps {
  item: FormConfigItem;
  value: unknown;
  onChange: (fileId: string | undefined) => void;
}

/** An image parameter: uploads at once (POST /api/files/upload) and keeps the fileId. */
export function ImageUploadField({ item, value, onChange }: ImageUploadFieldProps) {
  const [uploading, setUploading] = useState(false);
  const fileId = typeof value === 'string' && value ? value : undefined;

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) {
      toast('请选择 PNG、JPG、WebP 或 GIF 图片');
      return Upload.LIST_IGNORE;
    }
    if (file.size > IMAGE_MAX_MB * 1024 * 1024) {
      toast(`图片不能超过 ${IMAGE_MAX_MB} MB`);
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps['customRequest'] = ({ file, onSuccess, onError }) => {
    if (typeof file === 'string') return;
    setUploading(true);
    uploadFile(file, 'name' in file ? file.name : undefined)
      .then((result) => {
        onChange(result.fileId);
        onSuccess?.(result);
      })
      .catch((error: Error) => onError?.(error))
      .finally(() => setUploading(false));
  };

  if (fileId) {
    return (
      <div className="hf-image-field">
        <Image src={fileUrl(fileId)} width={96} height={96} alt={item.text} className="hf-image-field-thumb" />
        <Button
          size="small"
          icon={<DeleteOutlined />}
          disabled={item.disabled}
          onClick={() => onChange(undefined)}
          aria-label={`移除${item.text}`}
        >
          移除
        </Button>
      </div>
    );
  }
  return (
    <Upload
      accept={IMAGE_MIME_TYPES.join(',')}
      showUploadList={false}
      beforeUpload={beforeUpload}
      customRequest={customRequest}
      disabled={item.disabled || uploading}
    >
      <button type="button" className="hf-image-picker" aria-label={item.text} disabled={item.disabled}>
        {uploading ? <LoadingOutlined /> : <PlusOutlined />}
        <span>{uploading ? '上传中…' : item.text}</span>
      </button>
    </Upload>
  );
}
