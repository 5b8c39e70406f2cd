import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import type { GeneratedImage } from '@huafang/contracts';
import { Button } from 'antd';
import { useRef, useState } from 'react';
import { AigcBadge } from '../../common/AigcBadge';
import type { FinishedRun } from './generation-state';
import { ResultActions, type ResultHandlers } from './ResultActions';
import { ResultsPreview } from './ResultsGrid';
import './generate.css';

interface ResultSwiperProps {
  images: GeneratedImage[];
  run: FinishedRun | undefined;
  handlers: ResultHandlers;
}

/**
 * The results one at a time across the sheet's width. A swipe is the browser's own scrolling, snapped to a picture
 * (CSS scroll snap): it follows the finger, flicks and respects reduced motion with no gesture code of ours;
 * 上一张 / 下一张 do the same for a mouse or keyboard.
 */
export function ResultSwiper({ images, run, handlers }: ResultSwiperProps) {
  const track = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState(0);
  const [preview, setPreview] = useState<{ open: boolean; current: number }>({ open: false, current: 0 });
  const shown = Math.min(current, images.length - 1);

  const onScroll = () => {
    const element = track.current;
    if (element && element.clientWidth > 0) setCurrent(Math.round(element.scrollLeft / element.clientWidth));
  };
  const go = (index: number) => {
    const element = track.current;
    element?.scrollTo({ left: index * element.clientWidth, behavior: 'smooth' });
  };

  return (
    <div className="hf-swiper">
      <div ref={track} className="hf-swiper-track" onScroll={onScroll}>
        {images.map((image, index) => (
          <section
            key={image.workId}
            className="hf-result-card hf-swiper-slide"
            aria-roledescription="幻灯片"
            aria-label={`第 ${index + 1} 张，共 ${images.length} 张`}
          >
            <div className="hf-aigc-frame hf-swiper-frame">
              <button
                type="button"
                className="hf-zoom-thumb hf-swiper-image"
                onClick={() => setPreview({ open: true, current: index })}
                aria-label={`查看第 ${index + 1} 张大图`}
              >
                <img src={image.thumbUrl} alt={`生成结果 ${index + 1}`} />
              </button>
              <AigcBadge />
            </div>
            <div className="hf-result-body">
              <div className="hf-result-seed">
                {image.width}×{image.height} · 种子 {image.seed}
              </div>
              <ResultActions run={run} image={image} handlers={handlers} />
            </div>
          </section>
        ))}
      </div>
      {images.length > 1 && (
        <div className="hf-swiper-nav">
          <Button size="small" icon={<LeftOutlined />} disabled={shown <= 0} onClick={() => go(shown - 1)}>
            上一张
          </Button>
          <span className="hf-swiper-count" aria-live="polite">
            {shown + 1} / {images.length}
          </span>
          <Button
            size="small"
            icon={<RightOutlined />}
            iconPlacement="end"
            disabled={shown >= images.length - 1}
            onClick={() => go(shown + 1)}
          >
            下一张
          </Button>
        </div>
      )}
      <ResultsPreview images={images} preview={preview} setPreview={setPreview} />
    </div>
  );
}
