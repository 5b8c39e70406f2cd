import { App, Switch, type SwitchProps } from 'antd';
import { MARK_OFF_WARNING } from './compliance-form';

type MarkEnabledSwitchProps = Omit<SwitchProps, 'onChange'> & { onChange?: (checked: boolean) => void };

/**
 * The 显式标识 switch of 合规设置, as a form control: turning it on is immediate, turning it off only after the
 * admin has read what 第九条 asks for and confirmed. Nothing is saved until 保存.
 */
export function MarkEnabledSwitch({ onChange, ...props }: MarkEnabledSwitchProps) {
  const { modal } = App.useApp();

  function change(checked: boolean) {
    if (checked) {
      onChange?.(true);
      return;
    }
    modal.confirm({
      title: '关闭显式标识？',
      content: MARK_OFF_WARNING,
      okText: '仍要关闭',
      okButtonProps: { danger: true },
      cancelText: '保持开启',
      // Enter right after the question keeps the mark: switching it off takes a deliberate choice.
      autoFocusButton: 'cancel',
      onOk: () => onChange?.(false),
    });
  }

  return <Switch {...props} checkedChildren="开" unCheckedChildren="关" onChange={change} />;
}
