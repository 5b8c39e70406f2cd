import { DeleteOutlined, LoadingOutlined, PlusOutlined } from '@ant-design/icons';
import type { FormConfigItem, UploadResult } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Image, Upload } from 'antd';
import { useState } from 'react';
import { fileQueries } from '../../services/files';
import { useImageUpload } from '../upload/use-image-upload';
import './parameter-form.css';

const IMAGE_MAX_MB = 10;

interface ImageUploadFieldProps {
  item: FormConfigItem;
  value: unknown;
  onChange: (fileId: string | undefined) => void;
}

/** An image parameter: uploads at once (POST /api/files/upload) and keeps the fileId. */
export function ImageUploadField({ item, value, onChange }: ImageUploadFieldProps) {
  const [uploaded, setUploaded] = useState<UploadResult | null>(null);
  const { uploading, uploadProps } = useImageUpload(IMAGE_MAX_MB, (result) => {
    setUploaded(result);
    onChange(result.fileId);
  });
  const fileId = typeof value === 'string' && value ? value : undefined;
  // An upload's image opens only through a signed link: the upload answer's, else one asked for the kept fileId.
  const justUploaded = uploaded !== null && uploaded.fileId === fileId;
  const link = useQuery({ ...fileQueries.link(fileId), enabled: Boolean(fileId) && !justUploaded });
  const src = justUploaded ? uploaded.url : link.data?.url;

  if (fileId) {
    return (
      <div className="hf-image-field">
        <Image src={src} width={96} height={96} alt={item.text} className="hf-image-field-thumb" />
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
      <button
        type="button"
        className="hf-upload-picker hf-image-picker"
        aria-label={item.text}
        disabled={item.disabled}
      >
        {uploading ? <LoadingOutlined /> : <PlusOutlined />}
        <span>{uploading ? '上传中…' : item.text}</span>
      </button>
    </Upload>
  );
}
