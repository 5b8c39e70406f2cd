import type { GenerateMode, Parameters } from '@huafang/contracts';
import { Descriptions } from 'antd';
import { useSession } from '../../stores/session';
import { useLoraSummary } from './use-lora-summary';
import { useModelLabel } from './use-model-label';
import { parameterRows } from './work-parameters';

interface WorkParameterTableProps {
  parameters: Parameters;
  work: { width: number; height: number; mode: GenerateMode };
}

/** Rows with long values take the whole line. */
const WIDE_ROWS: ReadonlySet<string> = new Set(['modelId', 'controlNets', 'loras']);

export function WorkParameterTable({ parameters, work }: WorkParameterTableProps) {
  const loggedIn = useSession((state) => Boolean(state.token));
  const modelLabel = useModelLabel(loggedIn);
  // A bare model id means nothing to a reader: the row waits for the model's name.
  const rows = parameterRows(parameters, work).flatMap((row) => {
    if (row.key !== 'modelId') return [row];
    const name = modelLabel(row.value);
    return name ? [{ ...row, value: name }] : [];
  });
  const loras = useLoraSummary(parameters.loras);
  // Right after the model: the two together are the work's style.
  if (loras)
    rows.splice(rows.findIndex((row) => row.key === 'modelId') + 1, 0, {
      key: 'loras',
      label: 'LoRA 风格',
      value: loras,
    });
  return (
    <Descriptions
      size="small"
      bordered
      column={{ xs: 1, sm: 2 }}
      className="hf-work-params"
      items={rows.map((row) => ({
        key: row.key,
        label: row.label,
        children: row.value,
        span: WIDE_ROWS.has(row.key) ? 2 : 1,
      }))}
    />
  );
}
