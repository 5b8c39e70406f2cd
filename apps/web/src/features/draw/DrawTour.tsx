import { Tour, type TourProps } from 'antd';
import { useSession } from '../../stores/session';

/** Where each stop of the tour points; a part not on screen yet (no template chosen) gets a centred stop. */
const target = (selector: string) => () => document.querySelector<HTMLElement>(selector) ?? document.body;

const STEPS: TourProps['steps'] = [
  {
    title: '第一步：选择任务和模板',
    description: '点「切换」挑一个任务模板，模型和参数会按模板自动填好。',
    target: target('.hf-draw-task'),
  },
  {
    title: '第二步：编辑提示词',
    description: '模板已经带了常用提示词；点「词库」挑选更多，也可以直接输入中文，系统会自动翻译。',
    target: target('.hf-prompt-panel'),
  },
  {
    title: '第三步：点击生成',
    description: '这里会显示本次消耗的算力和排队位置；生成中可以看到进度和实时预览，随时可以中断。',
    target: target('.hf-generate-button'),
  },
];

/** The draw guidance content (spec §2): a guided tour over task selection, the prompt editor and 生成. */
export function DrawTour() {
  const open = useSession((state) => state.dialogs.guidanceContent);
  const closeDialog = useSession((state) => state.closeDialog);
  return <Tour open={open} steps={STEPS} onClose={() => closeDialog('guidanceContent')} />;
}
