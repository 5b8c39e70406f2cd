import { type MouseEvent, type PointerEvent, useEffect, useRef } from 'react';

/** How long a finger rests on an element before it counts as a long press (the platforms use about this). */
export const LONG_PRESS_MS = 500;

/**
 * Handlers for an element that also answers a long press of a finger or pen (the mouse keeps its click): the
 * press calls `onLongPress`, and the click or context menu that may follow it is swallowed. Moving away, lifting
 * early or the browser taking the gesture over for scrolling (pointercancel) calls it off.
 */
export function useLongPress(onLongPress: () => void) {
  const timer = useRef<number | undefined>(undefined);
  const fired = useRef(false);
  const latest = useRef(onLongPress);
  latest.current = onLongPress;
  const cancel = () => window.clearTimeout(timer.current);
  // A tile that unmounts mid-press (a page change) must not fire afterwards.
  useEffect(() => () => window.clearTimeout(timer.current), []);

  return {
    onPointerDown(event: PointerEvent) {
      if (event.pointerType === 'mouse') return;
      fired.current = false;
      cancel();
      timer.current = window.setTimeout(() => {
        fired.current = true;
        latest.current();
      }, LONG_PRESS_MS);
    },
    onPointerUp: cancel,
    onPointerLeave: cancel,
    onPointerCancel: cancel,
    onContextMenu(event: MouseEvent) {
      if (fired.current) event.preventDefault();
    },
    onClickCapture(event: MouseEvent) {
      if (!fired.current) return;
      fired.current = false;
      event.preventDefault();
      event.stopPropagation();
    },
  };
}
