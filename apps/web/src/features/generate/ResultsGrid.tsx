import type { GeneratedImage } from '@huafang/contracts';
import { Image } from 'antd';
import { useState } from 'react';
import { AigcBadge } from '../../common/AigcBadge';
import type { FinishedRun } from './generation-state';
import { ResultActions, type ResultHandlers } from './ResultActions';
import './generate.css';

interface ResultsGridProps {
  images: GeneratedImage[];
  /** The run the images belong to; none while its batch is still painting. */
  run: FinishedRun | undefined;
  handlers: ResultHandlers;
}

/** The results of one run as cards; a tap on a picture opens the originals in one preview group. */
export function ResultsGrid({ images, run, handlers }: ResultsGridProps) {
  const [preview, setPreview] = useState<{ open: boolean; current: number }>({ open: false, current: 0 });
  const show = (current: number) => setPreview({ open: true, current });

  return (
    <>
      <div className={`hf-results-grid${images.length === 1 ? ' hf-results-grid-single' : ''}`}>
        {images.map((image, index) => (
          <div key={image.workId} className="hf-result-card">
            <div className="hf-aigc-frame">
              <button
                type="button"
                className="hf-zoom-thumb hf-result-thumb"
                onClick={() => show(index)}
                aria-label={`查看第 ${index + 1} 张大图`}
              >
                <img src={image.thumbUrl} alt={`生成结果 ${index + 1}`} />
              </button>
              <AigcBadge />
            </div>
            <div className="hf-result-body">
              <div className="hf-result-seed" title={`${image.width}×${image.height} · 种子 ${image.seed}`}>
                {image.width}×{image.height} · 种子 {image.seed}
              </div>
              <ResultActions run={run} image={image} handlers={handlers} />
            </div>
          </div>
        ))}
      </div>
      <ResultsPreview images={images} preview={preview} setPreview={setPreview} />
    </>
  );
}

interface ResultsPreviewProps {
  images: GeneratedImage[];
  preview: { open: boolean; current: number };
  setPreview: (update: (state: { open: boolean; current: number }) => { open: boolean; current: number }) => void;
}

/** The originals of a run in antd's viewer. */
export function ResultsPreview({ images, preview, setPreview }: ResultsPreviewProps) {
  return (
    <Image.PreviewGroup
      items={images.map((image) => image.url)}
      preview={{
        open: preview.open,
        current: preview.current,
        onOpenChange: (open) => setPreview((state) => ({ ...state, open })),
        onChange: (current) => setPreview((state) => ({ ...state, current })),
      }}
    />
  );
}
