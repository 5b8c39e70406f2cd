import { Alert } from 'antd';
import './init-image.css';

/** While an image from Photoshop waits for a step that can take it. */
export function InitImageHandoverAlert({ onDismiss }: { onDismiss: () => void }) {
  return (
    <Alert
      type="info"
      showIcon
      closable={{ onClose: onDismiss, 'aria-label': '不使用这张图片' }}
      className="hf-handover-alert"
      title="已收到 Photoshop 发来的图片"
      description="这个步骤没有上传图片的位置。切换到带「上传图片」的图生图模板（如 人像摄影 · 蓝底证件照），图片会自动填入。"
    />
  );
}
