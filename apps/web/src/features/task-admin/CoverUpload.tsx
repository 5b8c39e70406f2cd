import type { FormConfigItem } from '@huafang/contracts';
import { fileIdOfUrl, fileUrl } from '../../services/files';
import { ImageUploadField } from '../form-config/ImageUploadField';

const COVER_FIELD: FormConfigItem = {
  type: 'image',
  name: 'cover',
  text: '封面',
  show: true,
  disabled: false,
  checked: false,
};

interface CoverUploadProps {
  /** The cover's URL; null or absent without one. Form.Item hands it over, as it does onChange. */
  value?: string | null;
  onChange?: (cover: string | null) => void;
}

/** The cover of a category, task or template: an uploaded image, kept as its file URL. */
export function CoverUpload({ value, onChange }: CoverUploadProps) {
  return (
    <ImageUploadField
      item={COVER_FIELD}
      value={fileIdOfUrl(value)}
      onChange={(fileId) => onChange?.(fileId ? fileUrl(fileId) : null)}
    />
  );
}
