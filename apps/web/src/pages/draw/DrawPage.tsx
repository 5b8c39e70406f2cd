import { Typography } from 'antd';
import { GenerateBar } from '../../features/draw/GenerateBar';
import { NoTemplateState } from '../../features/draw/NoTemplateState';
import { PromptGroupPanel } from '../../features/prompt/PromptGroupPanel';
import { useDraw } from '../../stores/draw';

export default function DrawPage() {
  const template = useDraw((state) => state.taskTemplateDetails);

  return (
    <div className="hf-page hf-draw-page">
      <Typography.Title level={3} className="hf-page-title">
        {template ? template.name : '创作'}
      </Typography.Title>
      {template ? (
        <>
          {template.description && (
            <Typography.Paragraph type="secondary" className="hf-page-sub">
              {template.description}
            </Typography.Paragraph>
          )}
          <PromptGroupPanel variant="positive" />
          <PromptGroupPanel variant="negative" />
          <GenerateBar />
        </>
      ) : (
        <NoTemplateState />
      )}
    </div>
  );
}
