import { useCallback, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { clampFraction, readFraction } from './split-fraction';

interface SplitPaneProps {
  /** Where the chosen split is remembered (localStorage). */
  storageKey: string;
  /** The first pane's share of the width before anyone moves the divider. */
  defaultFraction: number;
  min: number;
  max: number;
  /** The divider's accessible name. */
  label: string;
  first: ReactNode;
  second: ReactNode;
}

const KEY_STEP = 0.02;

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * Two panes side by side with a divider that a pointer drags and the arrow keys move (the ARIA window
 * splitter pattern); the split is remembered across sessions.
 */
export function SplitPane({ storageKey, defaultFraction, min, max, label, first, second }: SplitPaneProps) {
  const [fraction, setFraction] = useState(() => readFraction(stored(storageKey), defaultFraction, min, max));
  const container = useRef<HTMLDivElement>(null);

  const commit = useCallback(
    (value: number) => {
      const next = clampFraction(value, min, max);
      setFraction(next);
      try {
        localStorage.setItem(storageKey, next.toFixed(3));
      } catch {
        // Not remembered (storage disabled); the split still applies now.
      }
    },
    [storageKey, min, max],
  );

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    if (!event.currentTarget.hasPointerCapture(event.pointerId)) return;
    const box = container.current?.getBoundingClientRect();
    if (box && box.width > 0) commit((event.clientX - box.left) / box.width);
  }

  function onKeyDown(event: KeyboardEvent) {
    const step = { ArrowLeft: -KEY_STEP, ArrowRight: KEY_STEP }[event.key];
    const target = step !== undefined ? fraction + step : { Home: min, End: max }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    commit(target);
  }

  return (
    <div
      ref={container}
      className="split"
      style={{ gridTemplateColumns: `minmax(0, ${fraction}fr) 8px minmax(0, ${1 - fraction}fr)` }}
    >
      <div className="split-pane">{first}</div>
      <div
        className="split-divider"
        role="separator"
        aria-orientation="vertical"
        aria-label={label}
        aria-valuemin={Math.round(min * 100)}
        aria-valuemax={Math.round(max * 100)}
        aria-valuenow={Math.round(fraction * 100)}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onPointerDown={(event) => event.currentTarget.setPointerCapture(event.pointerId)}
        onPointerMove={onPointerMove}
        onDoubleClick={() => commit(defaultFraction)}
      />
      <div className="split-pane">{second}</div>
    </div>
  );
}
