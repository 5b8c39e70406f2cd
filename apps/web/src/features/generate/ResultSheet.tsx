import { DownOutlined } from '@ant-design/icons';
import { Button, Drawer } from 'antd';
import type { ReactNode } from 'react';
import './generate.css';

interface ResultSheetProps {
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}

/**
 * Phones and upright tablets: the result canvas as a full-height sheet over the form. The form stays mounted under
 * it and the drawer only locks the page's scrolling, so closing it returns the form as it was, values and scroll
 * position alike.
 */
export function ResultSheet({ open, onClose, children }: ResultSheetProps) {
  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement="bottom"
      size="100%"
      title="生成结果"
      closable={false}
      extra={
        <Button icon={<DownOutlined />} onClick={onClose}>
          返回表单
        </Button>
      }
      className="hf-result-sheet"
    >
      {children}
    </Drawer>
  );
}
