import { Modal, type ModalProps } from 'antd';
import { type DialogName, useSession } from '../../stores/session';

interface AccountModalProps extends Omit<ModalProps, 'open'> {
  /** The session-store flag that opens this dialog; cancelling clears it unless `onCancel` says otherwise. */
  name: DialogName;
}

/** The account dialogs' shared frame: no footer, centred, form state dropped on close. */
export function AccountModal({ name, ...props }: AccountModalProps) {
  const open = useSession((state) => state.dialogs[name]);
  const closeDialog = useSession((state) => state.closeDialog);
  return <Modal footer={null} destroyOnHidden centered onCancel={() => closeDialog(name)} {...props} open={open} />;
}
