import { ArrowRightOutlined, CopyOutlined, DownloadOutlined, RedoOutlined } from '@ant-design/icons';
import type { GeneratedImage } from '@huafang/contracts';
import { Button } from 'antd';
import type { FinishedRun } from './generation-state';
import './generate.css';

/** What a finished image can lead to; the page decides what 再次生成 sends and what 做同款 fills in. */
export interface ResultHandlers {
  onNextStep?: (run: FinishedRun, image: GeneratedImage) => void;
  /** Runs the same request again; null when it cannot be sent from here (the request is unknown). */
  againOf: (run: FinishedRun) => (() => void) | null;
  onMakeSame: (run: FinishedRun, image: GeneratedImage) => void;
  /** The image a 下一步 is being submitted for. */
  steppingWorkId: string | null;
  /** Another run is under way: new runs wait for it. */
  busy: boolean;
}

interface ResultActionsProps {
  /** The run the image belongs to; none while its batch is still painting. */
  run: FinishedRun | undefined;
  image: GeneratedImage;
  handlers: ResultHandlers;
}

/** 下一步, 保存, 再次生成 and 做同款 under one result. */
export function ResultActions({ run, image, handlers }: ResultActionsProps) {
  const { onNextStep, againOf, onMakeSame, steppingWorkId, busy } = handlers;
  const again = run ? againOf(run) : null;
  const nextStep = run?.nextStep;
  return (
    <div className="hf-result-actions">
      {run && nextStep && onNextStep && (
        <Button
          size="small"
          type="primary"
          icon={<ArrowRightOutlined />}
          loading={steppingWorkId === image.workId}
          disabled={busy}
          title={`在这张图上运行「${nextStep.name}」`}
          onClick={() => onNextStep(run, image)}
        >
          下一步：{nextStep.name}
        </Button>
      )}
      <Button size="small" icon={<DownloadOutlined />} href={image.url} download={`huafang-${image.workId}.png`}>
        保存
      </Button>
      <Button
        size="small"
        icon={<RedoOutlined />}
        disabled={!again || busy}
        title="用同样的提示词和参数再生成一次"
        onClick={() => again?.()}
      >
        再次生成
      </Button>
      <Button
        size="small"
        icon={<CopyOutlined />}
        disabled={!run}
        title="把这张图的提示词、参数和种子填回表单"
        onClick={() => run && onMakeSame(run, image)}
      >
        做同款
      </Button>
    </div>
  );
}
