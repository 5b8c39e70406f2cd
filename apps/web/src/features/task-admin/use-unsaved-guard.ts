import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';

/**
 * While a template has unsaved edits: leaving it (another tree node changes `?node=`, another page, closing the
 * tab) asks first, so a misclick in the tree does not throw the edits away.
 */
export function useUnsavedGuard(dirty: boolean): void {
  const { modal } = App.useApp();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  // The blocker object changes every render; the dialog must open once per blocked navigation.
  const latest = useRef(blocker);
  latest.current = blocker;

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    modal.confirm({
      title: '有未保存的修改',
      content: '离开后，这个模板未保存的修改会丢失。',
      okText: '放弃修改并离开',
      okButtonProps: { danger: true },
      cancelText: '继续编辑',
      onOk: () => latest.current.proceed?.(),
      onCancel: () => latest.current.reset?.(),
    });
  }, [blocker.state, modal]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
}
