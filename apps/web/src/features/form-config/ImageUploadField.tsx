import { DeleteOutlined, LoadingOutlined, PlusOutlined } from '@ant-design/icons';
import type { FormConfigItem } from '@huafang/contracts';
import { Button, Image, Upload } from 'antd';
import { fileUrl } from '../../services/files';
import { useImageUpload } from '../upload/use-image-upload';

const IMAGE_MAX_MB = 10;

interface ImageUploadFieldProps {
  item: FormConfigItem;
  value: unknown;
  onChange: (fileId: string | undefined) => void;
}

/** An image parameter: uploads at once (POST /api/files/upload) and keeps the fileId. */
export function ImageUploadField({ item, value, onChange }: ImageUploadFieldProps) {
  const { uploading, uploadProps } = useImageUpload(IMAGE_MAX_MB, (result) => onChange(result.fileId));
  const fileId = typeof value === 'string' && value ? value : undefined;

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
    <Upload {...uploadProps} disabled={item.disabled || uploading}>
      <button type="button" className="hf-image-picker" aria-label={item.text} disabled={item.disabled}>
        {uploading ? <LoadingOutlined /> : <PlusOutlined />}
        <span>{uploading ? '上传中…' : item.text}</span>
      </button>
    </Upload>
  );
}
