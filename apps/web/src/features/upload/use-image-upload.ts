import { IMAGE_MIME_TYPES, type UploadResult } from '@huafang/contracts';
import { Upload, type UploadProps } from 'antd';
import { useState } from 'react';
import { uploadFile } from '../../services/files';
import { toast } from '../../services/notices';

/**
 * antd Upload wiring for one image: checks type and size before sending (the server checks the content
 * again), uploads at once through POST /api/files/upload and hands the result to `onUploaded`.
 */
export function useImageUpload(maxMb: number, onUploaded: (result: UploadResult) => void) {
  const [uploading, setUploading] = useState(false);

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) {
      toast('请选择 PNG、JPG、WebP 或 GIF 图片');
      return Upload.LIST_IGNORE;
    }
    if (file.size > maxMb * 1024 * 1024) {
      toast(`图片不能超过 ${maxMb} MB`);
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps['customRequest'] = ({ file, onSuccess, onError }) => {
    if (typeof file === 'string') return;
    setUploading(true);
    uploadFile(file, 'name' in file ? file.name : undefined)
      .then((result) => {
        onUploaded(result);
        onSuccess?.(result);
      })
      .catch((error: Error) => onError?.(error))
      .finally(() => setUploading(false));
  };

  return {
    uploading,
    uploadProps: { accept: IMAGE_MIME_TYPES.join(','), showUploadList: false, beforeUpload, customRequest },
  };
}
