import { Image } from 'antd';
import './gallery.css';

interface WorkThumbProps {
  work: { thumbUrl: string; url: string };
  alt?: string;
}

/** A work's small square in a list or table; clicking it previews the original. */
export function WorkThumb({ work, alt = '作品' }: WorkThumbProps) {
  return (
    <Image src={work.thumbUrl} preview={{ src: work.url }} width={56} height={56} alt={alt} className="hf-work-thumb" />
  );
}
