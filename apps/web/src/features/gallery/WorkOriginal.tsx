import { Image } from 'antd';
import { AigcBadge } from '../../common/AigcBadge';

interface WorkOriginalProps {
  url: string;
  thumbUrl: string;
  width: number;
  height: number;
  alt: string;
}

/**
 * The original PNG, loaded only in a detail dialog; the thumbnail (already cached by the grid) stands in while
 * it loads. Clicking opens antd's zoomable preview. The AI生成 badge is shown too: the mark drawn on the original
 * only comes once it has loaded, and an admin may switch that mark off.
 */
export function WorkOriginal({ url, thumbUrl, width, height, alt }: WorkOriginalProps) {
  return (
    <div className="hf-work-original hf-aigc-frame" style={{ aspectRatio: `${width} / ${height}` }}>
      <Image
        src={url}
        alt={alt}
        placeholder={<img src={thumbUrl} alt="" className="hf-work-original-placeholder" />}
        preview={{ cover: '查看大图' }}
      />
      <AigcBadge />
    </div>
  );
}
