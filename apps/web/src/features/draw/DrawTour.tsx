import { Tour, type TourProps } from 'antd';
import { useMemo } from 'react';
import { useIsNarrow } from '../../common/use-screen';
import { useDraw } from '../../stores/draw';
import { useSession } from '../../stores/session';
import './draw-tour.css';

/** The first element matching `selector` that is on screen (rendered with a size), optionally with this text. */
function onScreen(selector: string, text?: string): HTMLElement | null {
  for (const element of document.querySelectorAll<HTMLElement>(selector)) {
    if (element.getClientRects().length === 0) continue;
    if (text && !element.textContent?.includes(text)) continue;
    return element;
  }
  return null;
}

/** Stops point at what is on screen now; a stop whose part is missing is not offered at all (see buildSteps). */
const target = (selector: string, text?: string) => () => onScreen(selector, text) ?? document.body;

/**
 * The tour's stops for the layout on screen: the task card sits in the left aside on a desktop and at the top of
 * the page on narrow screens; without a template there is only 选择模板 to point at, and the tour says what comes
 * after it instead of pointing at parts that are not there yet.
 */
export function buildSteps(narrow: boolean, hasTemplate: boolean): NonNullable<TourProps['steps']> {
  const where = narrow ? '页面顶部' : '左侧';
  if (!hasTemplate) {
    return [
      {
        title: '第一步：选择模板',
        description:
          '点「选择模板」挑一个任务模板，模型和参数会按模板自动填好。选好后，这里会出现正向、反向提示词，页面底部会出现「生成」按钮。',
        target: target('.hf-empty-panel button', '选择模板'),
      },
    ];
  }
  return [
    {
      title: '第一步：任务和模板',
      description: `${where}的卡片显示正在用的任务和模板；点「切换」可以换一个，模型和参数会按模板自动填好。`,
      target: target('.hf-draw-task'),
    },
    {
      title: '第二步：正向提示词',
      description: '「正向提示词」里是模板自带的词；点「词库」挑选更多，也可以在下方直接输入中文，系统会自动翻译。',
      target: target('section[aria-label="正向提示词"]'),
    },
    {
      title: '第三步：生成',
      description: '页面底部的「生成」按钮旁显示本次消耗的算力和排队位置；生成中可以看到进度和实时预览，随时可以中断。',
      target: target('.hf-generate-button'),
    },
  ];
}

/** The draw guidance content (spec §2): a guided tour over the task card, the prompt editor and 生成. */
export function DrawTour() {
  const open = useSession((state) => state.dialogs.guidanceContent);
  const closeDialog = useSession((state) => state.closeDialog);
  const narrow = useIsNarrow();
  const hasTemplate = useDraw((state) => state.taskTemplateDetails !== null);
  const steps = useMemo(() => buildSteps(narrow, hasTemplate), [narrow, hasTemplate]);
  return (
    <Tour
      open={open}
      steps={steps}
      rootClassName="hf-draw-tour"
      scrollIntoViewOptions={{ block: 'center' }}
      onClose={() => closeDialog('guidanceContent')}
    />
  );
}
