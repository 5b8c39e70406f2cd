import { Grid, theme } from 'antd';
import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';

type Breakpoint = 'md' | 'lg' | 'xl';
const TOKEN: Record<Breakpoint, 'screenMD' | 'screenLG' | 'screenXL'> = {
  md: 'screenMD',
  lg: 'screenLG',
  xl: 'screenXL',
};

/**
 * The window width a page the server rendered was laid out for (ssr/entry-server.tsx guesses it from the browser's
 * name); null when the browser renders the page itself. Hydration starts from it so the first render matches the
 * server's HTML, and moves to the real width right after.
 */
export const RenderedWidthContext = createContext<number | null>(null);

/**
 * Whether the window is at least as wide as antd's breakpoint. Grid.useBreakpoint answers only after its first
 * layout effect, so the first render asks the browser directly: a phone never draws the desktop layout first.
 */
function useAtLeast(breakpoint: Breakpoint): boolean {
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const minWidth = token[TOKEN[breakpoint]];
  const renderedWidth = useContext(RenderedWidthContext);
  const query = `(min-width: ${minWidth}px)`;
  const subscribe = useCallback(
    (changed: () => void) => {
      const media = window.matchMedia(query);
      media.addEventListener('change', changed);
      return () => media.removeEventListener('change', changed);
    },
    [query],
  );
  const matches = useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => (renderedWidth ?? 0) >= minWidth,
  );
  return screens[breakpoint] ?? matches;
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
