import type { FormConfigItem } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Tag } from 'antd';
import { optionQueries } from '../../services/options';
import { CONTROLNET_MODULE, parseFromConfig } from '../form-config/form-values';
import { PARAMETER_LABELS } from './field-presets';

interface ControlNetModulesHintProps {
  unitFields: FormConfigItem[];
}

/** Which tuning fields each 预处理器 shows on /draw: its option's fromConfig decides, the core fields always show. */
export function ControlNetModulesHint({ unitFields }: ControlNetModulesHintProps) {
  const moduleField = unitFields.find((item) => item.name === CONTROLNET_MODULE);
  const fetched = useQuery(optionQueries.formOptions(moduleField?.option ? undefined : moduleField?.url));
  const modules = moduleField?.option ?? fetched.data ?? [];
  const textOf = (name: string) =>
    unitFields.find((item) => item.name === name)?.text ?? PARAMETER_LABELS[name] ?? name;

  if (!moduleField) {
    return <Alert type="warning" showIcon title="ControlNet 单元需要一个预处理器字段（controlnetModule）" />;
  }
  return (
    <Alert
      type="info"
      title="各预处理器显示的字段"
      description={
        <>
          预处理器、控制模型和参考图总会显示；其余字段由所选预处理器的 fromConfig 决定。
          <ul className="hf-ta-module-list">
            {modules.map((module) => (
              <li key={String(module.value)}>
                <span className="hf-ta-module-name">{module.label}</span>
                {parseFromConfig(module.fromConfig).map((name) => (
                  <Tag key={name}>{textOf(name)}</Tag>
                ))}
              </li>
            ))}
          </ul>
        </>
      }
    />
  );
}
