import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { FreeParametersPanel } from '../../features/chuangyi/FreeParametersPanel';
import { FreePromptPanel } from '../../features/chuangyi/FreePromptPanel';
import { useFreeGeneration } from '../../features/chuangyi/use-free-generation';
import { GenerateBar } from '../../features/generate/GenerateBar';
import { GenerationPanel } from '../../features/generate/GenerationPanel';
import { QuotaNoticeDialog } from '../../features/generate/QuotaNoticeDialog';
import { useChuangyi } from '../../stores/chuangyi';

function promptFromState(state: unknown): string {
  if (typeof state !== 'object' || state === null) return '';
  const { prompt } = state as { prompt?: unknown };
  return typeof prompt === 'string' ? prompt.trim() : '';
}

/** 自由创作 (no title, spec §2): one column of prompts, parameters, 生成 and results. */
export default function ChuangyiPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const setPrompt = useChuangyi((state) => state.setPrompt);
  const { generation, body, blockedReason } = useFreeGeneration();

  // The home page hands over its prompt once; dropping the state keeps a reload from overwriting later edits.
  const handover = promptFromState(location.state);
  useEffect(() => {
    if (!handover) return;
    setPrompt(handover);
    navigate(location.pathname, { replace: true, state: null });
  }, [handover, setPrompt, navigate, location.pathname]);

  return (
    <div className="hf-page hf-chuangyi">
      <FreePromptPanel />
      <FreeParametersPanel />
      <GenerationPanel store={useChuangyi} generation={generation} />
      <GenerateBar body={body} blockedReason={blockedReason} generation={generation} />
      <QuotaNoticeDialog store={useChuangyi} />
    </div>
  );
}
