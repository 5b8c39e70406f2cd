import { useMutation, useQuery } from '@tanstack/react-query';
import { toast } from '../../services/notices';
import { isRequestError } from '../../services/request-error';
import { polishPrompt, translateFeatures } from '../../services/translate';

/** Whether 「AI 润色」 is offered: only where the server has an LLM configured. Asked once per session. */
export function usePolishAvailable(): boolean {
  const features = useQuery({ queryKey: ['translate', 'features'], queryFn: translateFeatures, staleTime: Infinity });
  return features.data?.polish === true;
}

/** 「AI 润色」 of a short idea; a failure is told in a notice and the idea stays as typed. */
export function usePolish(onPolished: (result: { chinese: string; english: string }) => void) {
  return useMutation({
    mutationFn: polishPrompt,
    onSuccess: onPolished,
    onError: (error) => toast(isRequestError(error) && error.message ? error.message : 'AI 润色失败，请稍后重试'),
  });
}
