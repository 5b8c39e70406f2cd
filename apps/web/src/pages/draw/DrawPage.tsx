import { Typography } from 'antd';
import { Suspense } from 'react';
import { useIsNarrow } from '../../common/use-screen';
import {
  LazyDrawTour,
  LazyPromptGroupPanel,
  LazyQuotaNoticeDialog,
  LazyStackedParameters,
} from '../../features/draw/draw-lazy';
import { InitImageHandoverAlert } from '../../features/draw/InitImageHandoverAlert';
import { NoTemplateState } from '../../features/draw/NoTemplateState';
import { PngInfoImport } from '../../features/draw/png-info/PngInfoImport';
import { StackedTemplateCard } from '../../features/draw/StackedTemplateCard';
import { useDrawGeneration } from '../../features/draw/use-draw-generation';
import { useInitImageHandover } from '../../features/draw/use-init-image-handover';
import { GenerationWorkspace } from '../../features/generate/GenerationWorkspace';
import { useDraw } from '../../stores/draw';
import '../../features/draw/draw.css';

export default function DrawPage() {
  const template = useDraw((state) => state.taskTemplateDetails);
  const { generation, body, blockedReason, runNextStep, makeSame, emptyHint } = useDrawGeneration();
  const handover = useInitImageHandover();
  // Narrow screens have no aside: its card, step tabs and parameters stack into the page around the prompts.
  const narrow = useIsNarrow();

  return (
    <div className="hf-page hf-draw-page">
      <GenerationWorkspace
        store={useDraw}
        generation={generation}
        body={body}
        blockedReason={blockedReason}
        showBar={template !== null}
        onNextStep={runNextStep}
        onMakeSame={makeSame}
        emptyHint={emptyHint}
        columnFrom="xl"
      >
        <Typography.Title level={3} className="hf-page-title">
          {template ? template.name : '创作'}
        </Typography.Title>
        {handover.waiting && <InitImageHandoverAlert onDismiss={handover.dismiss} />}
        {narrow && <StackedTemplateCard />}
        {template ? (
          <>
            {template.description && (
              <Typography.Paragraph type="secondary" className="hf-page-sub">
                {template.description}
              </Typography.Paragraph>
            )}
            <PngInfoImport />
            <Suspense fallback={null}>
              <LazyPromptGroupPanel variant="positive" />
              <LazyPromptGroupPanel variant="negative" />
              {narrow && <LazyStackedParameters />}
            </Suspense>
          </>
        ) : (
          <NoTemplateState />
        )}
      </GenerationWorkspace>
      <Suspense fallback={null}>
        <LazyQuotaNoticeDialog store={useDraw} />
        <LazyDrawTour />
      </Suspense>
    </div>
  );
}
