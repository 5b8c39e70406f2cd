import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { FreeParametersPanel } from '../../features/chuangyi/FreeParametersPanel';
import { FreePromptPanel } from '../../features/chuangyi/FreePromptPanel';
import { useFreeGeneration } from '../../features/chuangyi/use-free-generation';
import { GenerationWorkspace } from '../../features/generate/GenerationWorkspace';
import { QuotaNoticeDialog } from '../../features/generate/QuotaNoticeDialog';
import { useChuangyi } from '../../stores/chuangyi';

function promptFromState(state: unknown): string {
  if (typeof state !== 'object' || state === null) return '';
  const { prompt } = state as { prompt?: unknown };
  return typeof prompt === 'string' ? prompt.trim() : '';
}

/** 自由创作 (no title, spec §2): prompts and parameters beside the result canvas (a sheet on phones). */
export default function ChuangyiPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const setPrompt = useChuangyi((state) => state.setPrompt);
  const { generation, body, blockedReason, makeSame } = useFreeGeneration();

  // The home page hands over its prompt once; dropping the state keeps a reload from overwriting later edits.
  const handover = promptFromState(location.state);
  useEffect(() => {
    if (!handover) return;
    setPrompt(handover);
    navigate(location.pathname, { replace: true, state: null });
  }, [handover, setPrompt, navigate, location.pathname]);

  return (
    <div className="hf-page hf-chuangyi">
      <GenerationWorkspace
        store={useChuangyi}
        generation={generation}
        body={body}
        blockedReason={blockedReason}
        showBar
        onMakeSame={makeSame}
        emptyHint="描述你想要的画面，调整参数后点「生成」，结果会显示在这里"
      >
        <FreePromptPanel />
        <FreeParametersPanel />
      </GenerationWorkspace>
      <QuotaNoticeDialog store={useChuangyi} />
    </div>
  );
}
