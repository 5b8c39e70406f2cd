import { Grid, theme } from 'antd';

type Breakpoint = 'md' | 'lg' | 'xl';
const TOKEN: Record<Breakpoint, 'screenMD' | 'screenLG' | 'screenXL'> = {
  md: 'screenMD',
  lg: 'screenLG',
  xl: 'screenXL',
};

/**
 * Whether the window is at least as wide as antd's breakpoint. Grid.useBreakpoint answers only after its first
 * layout effect, so the first render asks the browser directly: a phone never draws the desktop layout first.
 */
function useAtLeast(breakpoint: Breakpoint): boolean {
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  return screens[breakpoint] ?? window.matchMedia(`(min-width: ${token[TOKEN[breakpoint]]}px)`).matches;
}

/** Phones (below antd's md, 768 px): one column, two-column galleries, full-screen dialogs and drawers. */
export function useIsPhone(): boolean {
  return !useAtLeast('md');
}

/** Phones and upright tablets (below antd's lg, 992 px): the header folds into 菜单 and side panels stack. */
export function useIsNarrow(): boolean {
  return !useAtLeast('lg');
}

/** Whether the window is at least antd's `lg` (992 px) or `xl` (1200 px) wide. */
export function useIsAtLeast(breakpoint: 'lg' | 'xl'): boolean {
  return useAtLeast(breakpoint);
}

/** A drawer's size: its desktop width, or the whole screen on a phone. */
export function useDrawerSize(desktop: number): number | string {
  return useIsPhone() ? '100%' : desktop;
}
