import { ArrowLeftOutlined, ArrowRightOutlined, CloseOutlined, PlusOutlined } from '@ant-design/icons';
import type { TemplateDetail } from '@huafang/contracts';
import { App, Button, Card, Space, Tabs, Tag, Typography } from 'antd';
import { useIsPhone } from '../../common/use-screen';
import { isRequestError } from '../../services/request-error';
import { deleteTemplateStep, type TemplateSaveMode } from '../../services/task-admin';
import { FeaturedSwitch } from './FeaturedSwitch';
import { StepEditor } from './StepEditor';
import { TemplateBasicsForm } from './TemplateBasicsForm';
import { MAX_STEPS, type TemplateDraft } from './template-draft';
import { statusTagsOf } from './tree-model';
import { useTemplateDraft } from './use-template-draft';
import { useUnsavedGuard } from './use-unsaved-guard';

interface TemplateDraftEditorProps {
  detail: TemplateDetail;
  /** Users have a published version, which a saved draft leaves in place until the next 发布. */
  published: boolean;
  activeIndex: number;
  onActiveIndexChange: (index: number) => void;
  saving: TemplateSaveMode | null;
  onSave: (mode: TemplateSaveMode, draft: TemplateDraft) => void;
}

/** Basic info, step tabs and 保存草稿 / 发布 for one template, editing a local draft until saved. */
export function TemplateDraftEditor({
  detail,
  published,
  activeIndex,
  onActiveIndexChange,
  saving,
  onSave,
}: TemplateDraftEditorProps) {
  const { modal } = App.useApp();
  const { draft, dirty, setBasics, updateStep, addStep, removeStep, moveStep } = useTemplateDraft(detail);
  useUnsavedGuard(dirty);
  const active = Math.min(activeIndex, draft.steps.length - 1);
  const isPhone = useIsPhone();

  function confirmRemoveStep(index: number) {
    const step = draft.steps[index];
    if (!step) return;
    modal.confirm({
      title: `删除步骤「${step.name || `步骤 ${index + 1}`}」？`,
      content: step.id
        ? '步骤会立即从已保存的模板中删除，无法恢复；用户看到的已发布版本在再次发布后才会变化。'
        : '这个步骤还没有保存，删除后无法恢复。',
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          if (step.id) await deleteTemplateStep(step.id);
        } catch (error) {
          if (isRequestError(error) && error.notified) return;
          throw error;
        }
        removeStep(index);
        onActiveIndexChange(Math.max(0, Math.min(active, draft.steps.length - 2)));
      },
    });
  }

  const stepActions = (
    <Space size={4}>
      {([-1, 1] as const).map((offset) => (
        <Button
          key={offset}
          icon={offset < 0 ? <ArrowLeftOutlined /> : <ArrowRightOutlined />}
          disabled={draft.steps[active + offset] === undefined}
          onClick={() => {
            moveStep(active, offset);
            onActiveIndexChange(active + offset);
          }}
        >
          {offset < 0 ? '前移' : '后移'}
        </Button>
      ))}
      <Button
        type="dashed"
        icon={<PlusOutlined />}
        disabled={draft.steps.length >= MAX_STEPS}
        title={draft.steps.length >= MAX_STEPS ? `模板最多 ${MAX_STEPS} 个步骤` : undefined}
        onClick={() => {
          addStep();
          onActiveIndexChange(draft.steps.length);
        }}
      >
        添加步骤
      </Button>
    </Space>
  );

  return (
    <div className="hf-ta-template">
      <Card
        className="hf-ta-card hf-ta-template-card"
        title={
          <Space size={8} wrap>
            <span>模板：{detail.name}</span>
            {statusTagsOf({ kind: 'template', published, status: detail.status }).map((tag) => (
              <Tag key={tag.text} color={tag.color}>
                {tag.text}
              </Tag>
            ))}
            {detail.version > 0 && <Typography.Text type="secondary">第 {detail.version} 版</Typography.Text>}
            {dirty && <Tag color="gold">有未保存的修改</Tag>}
          </Space>
        }
        extra={
          <Space>
            <Button loading={saving === 'draft'} disabled={saving !== null} onClick={() => onSave('draft', draft)}>
              保存草稿
            </Button>
            <Button
              type="primary"
              loading={saving === 'publish'}
              disabled={saving !== null}
              onClick={() => onSave('publish', draft)}
            >
              发布
            </Button>
          </Space>
        }
      >
        <TemplateBasicsForm
          basics={draft}
          onChange={setBasics}
          sample={
            detail.ownerId === null ? { templateId: detail.templateId, firstStep: detail.taskStepList[0] } : undefined
          }
        />
        {detail.ownerId === null && <FeaturedSwitch detail={detail} />}
      </Card>
      {/* On a phone the actions take a row of their own: beside the tabs they would leave no room for them. */}
      {isPhone && <div className="hf-ta-step-actions">{stepActions}</div>}
      <Tabs
        type="card"
        className="hf-ta-steps"
        activeKey={draft.steps[active]?.key}
        onChange={(key) => onActiveIndexChange(draft.steps.findIndex((step) => step.key === key))}
        tabBarExtraContent={isPhone ? undefined : stepActions}
        items={draft.steps.map((step, index) => {
          const label = step.name.trim() || `步骤 ${index + 1}`;
          return {
            key: step.key,
            label: (
              <span className="hf-ta-step-tab">
                {label}
                {draft.steps.length > 1 && (
                  <Button
                    type="text"
                    size="small"
                    icon={<CloseOutlined />}
                    aria-label={`删除步骤「${label}」`}
                    onClick={(event) => {
                      event.stopPropagation();
                      confirmRemoveStep(index);
                    }}
                  />
                )}
              </span>
            ),
            children: <StepEditor step={step} index={index} onChange={(patch) => updateStep(index, patch)} />,
          };
        })}
      />
    </div>
  );
}
