import { CloseCircleFilled, ExclamationCircleFilled } from '@ant-design/icons';
import { Flex, theme } from 'antd';
import type { ReactNode } from 'react';

interface StatusMessageProps {
  status: 'error' | 'warning';
  title: ReactNode;
  subTitle: ReactNode;
  extra: ReactNode;
}

/**
 * The error views that are part of every first load. antd's Result would do the same, but it brings its three
 * large status illustrations along even when a view uses none of them.
 */
export function StatusMessage({ status, title, subTitle, extra }: StatusMessageProps) {
  const { token } = theme.useToken();
  const Icon = status === 'error' ? CloseCircleFilled : ExclamationCircleFilled;
  return (
    <Flex vertical align="center" gap={token.marginSM} style={{ padding: token.paddingXL * 1.5 }} role="alert">
      <Icon style={{ fontSize: 72, color: status === 'error' ? token.colorError : token.colorWarning }} />
      <h2 style={{ margin: 0, color: token.colorTextHeading, fontSize: token.fontSizeHeading3, textAlign: 'center' }}>
        {title}
      </h2>
      <p style={{ margin: 0, color: token.colorTextDescription, textAlign: 'center' }}>{subTitle}</p>
      <Flex gap={token.marginXS} wrap justify="center" style={{ marginTop: token.marginMD }}>
        {extra}
      </Flex>
    </Flex>
  );
}
