import { Image } from 'antd';

interface WorkOriginalProps {
  url: string;
  thumbUrl: string;
  width: number;
  height: number;
  alt: string;
}

/**
 * The original PNG, loaded only in a detail dialog; the thumbnail (already cached by the grid) stands in while
 * it loads. Clicking opens antd's zoomable preview.
 */
export function WorkOriginal({ url, thumbUrl, width, height, alt }: WorkOriginalProps) {
  return (
    <div className="hf-work-original" style={{ aspectRatio: `${width} / ${height}` }}>
      <Image
        src={url}
        alt={alt}
        placeholder={<img src={thumbUrl} alt="" className="hf-work-original-placeholder" />}
        preview={{ cover: '查看大图' }}
      />
    </div>
  );
}
