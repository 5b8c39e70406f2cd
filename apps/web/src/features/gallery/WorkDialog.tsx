import { Modal } from 'antd';
import type { ReactNode } from 'react';
import './gallery.css';

interface WorkDialogProps {
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}

/** 作品详情, the frame both the owner's and the public detail open in. */
export function WorkDialog({ open, onClose, children }: WorkDialogProps) {
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title="作品详情"
      width={1000}
      footer={null}
      destroyOnHidden
      className="hf-work-dialog"
    >
      {children}
    </Modal>
  );
}
