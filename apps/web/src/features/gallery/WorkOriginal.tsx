import { Image } from 'antd';
import { AigcBadge } from '../../common/AigcBadge';
import { originalSrcSet } from './thumb-srcset';

/** The picture's slot: the phone's width, at most about 640 px in a dialog or the shared page on wider screens. */
export const ORIGINAL_SIZES = '(max-width: 767px) 100vw, 640px';

interface WorkOriginalProps {
  url: string;
  thumbUrl: string;
  width: number;
  height: number;
  alt: string;
  /** The page's main picture (a shared link): loaded first. */
  priority?: boolean;
}

/**
 * The original PNG, loaded only in a detail dialog; the thumbnail (already cached by the grid) stands in while
 * it loads. Clicking opens antd's zoomable preview. The AI生成 badge is shown too: the mark drawn on the original
 * only comes once it has loaded, and an admin may switch that mark off.
 */
export function WorkOriginal({ url, thumbUrl, width, height, alt, priority = false }: WorkOriginalProps) {
  return (
    <div className="hf-work-original hf-aigc-frame" style={{ aspectRatio: `${width} / ${height}` }}>
      <Image
        src={url}
        // A phone fills its width with the 640 thumbnail rather than the PNG; the preview always shows the original.
        srcSet={originalSrcSet({ url, thumbUrl, width, height })}
        sizes={ORIGINAL_SIZES}
        alt={alt}
        fetchPriority={priority ? 'high' : 'auto'}
        placeholder={<img src={thumbUrl} alt="" className="hf-work-original-placeholder" />}
        preview={{ cover: '查看大图', src: url }}
      />
      <AigcBadge />
    </div>
  );
}
