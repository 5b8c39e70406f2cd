import { ArrowRightOutlined, DownloadOutlined, ExpandOutlined } from '@ant-design/icons';
import type { GeneratedImage } from '@huafang/contracts';
import { Button, Image } from 'antd';
import { useState } from 'react';
import { AigcBadge } from '../../common/AigcBadge';
import type { NextStep } from './generation-state';
import './generate.css';

interface ResultsGridProps {
  images: GeneratedImage[];
  /** The template step 下一步 runs on one of these images; none hides the button. */
  nextStep: NextStep | null;
  onNextStep?: (image: GeneratedImage) => void;
  /** The image a 下一步 is being submitted for. */
  steppingWorkId: string | null;
  /** Another run is under way: 下一步 waits for it. */
  busy: boolean;
}

/** Thumbnails of one run; 查看大图 opens the originals in one preview group, 下载 saves the original PNG. */
export function ResultsGrid({ images, nextStep, onNextStep, steppingWorkId, busy }: ResultsGridProps) {
  const [preview, setPreview] = useState<{ open: boolean; current: number }>({ open: false, current: 0 });
  const show = (current: number) => setPreview({ open: true, current });

  return (
    <>
      <div className="hf-results-grid">
        {images.map((image, index) => (
          <div key={image.workId} className="hf-result-card">
            <div className="hf-aigc-frame">
              <button
                type="button"
                className="hf-zoom-thumb hf-result-thumb"
                onClick={() => show(index)}
                aria-label={`查看第 ${index + 1} 张大图`}
              >
                <img src={image.thumbUrl} alt={`生成结果 ${index + 1}`} loading="lazy" />
              </button>
              <AigcBadge />
            </div>
            <div className="hf-result-body">
              <div className="hf-result-seed" title={`${image.width}×${image.height} · 种子 ${image.seed}`}>
                {image.width}×{image.height} · 种子 {image.seed}
              </div>
              <div className="hf-result-actions">
                <Button size="small" icon={<ExpandOutlined />} onClick={() => show(index)}>
                  查看大图
                </Button>
                <Button
                  size="small"
                  icon={<DownloadOutlined />}
                  href={image.url}
                  download={`huafang-${image.workId}.png`}
                >
                  下载
                </Button>
                {nextStep && onNextStep && (
                  <Button
                    size="small"
                    type="primary"
                    ghost
                    icon={<ArrowRightOutlined />}
                    loading={steppingWorkId === image.workId}
                    disabled={busy}
                    title={`在这张图上运行「${nextStep.name}」`}
                    onClick={() => onNextStep(image)}
                  >
                    下一步：{nextStep.name}
                  </Button>
                )}
              </div>
            </div>
          </div>
        ))}
      </div>
      <Image.PreviewGroup
        items={images.map((image) => image.url)}
        preview={{
          open: preview.open,
          current: preview.current,
          onOpenChange: (open) => setPreview((state) => ({ ...state, open })),
          onChange: (current) => setPreview((state) => ({ ...state, current })),
        }}
      />
    </>
  );
}
