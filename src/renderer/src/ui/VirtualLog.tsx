import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { rowOffsets, visibleRows } from './virtual-window';

/** Rows rendered beyond each edge of the viewport, in pixels, so fast scrolling shows no gaps. */
const OVERSCAN_PX = 800;
/** Closer than this to the end counts as at the end. */
const END_SLACK_PX = 32;

interface VirtualLogProps<T> {
  items: readonly T[];
  itemKey: (item: T) => string;
  /** A first guess of a row's height, until it has been rendered and measured. */
  estimateHeight: (item: T) => number;
  renderItem: (item: T) => ReactNode;
  label: string;
  /** Shown instead of rows while there are none. */
  empty?: ReactNode;
}

/**
 * A scrolling list that renders only the rows in and near the viewport, measuring each rendered row
 * (ResizeObserver) and estimating the others. It follows new rows at the end until the user scrolls
 * up, and then offers a way back.
 */
export function VirtualLog<T>({
  items,
  itemKey,
  estimateHeight,
  renderItem,
  label,
  empty,
}: VirtualLogProps<T>) {
  const viewport = useRef<HTMLDivElement>(null);
  const lastScrollTop = useRef(0);
  const [scroll, setScroll] = useState({ top: 0, height: 0 });
  const [following, setFollowing] = useState(true);
  const [measured, setMeasured] = useState(() => new Map<string, number>());

  const [rowObserver] = useState(() =>
    typeof ResizeObserver === 'undefined'
      ? null
      : new ResizeObserver((entries) =>
          setMeasured((current) => {
            let next: Map<string, number> | null = null;
            for (const entry of entries) {
              const key = (entry.target as HTMLElement).dataset.rowKey;
              const height = entry.borderBoxSize[0]?.blockSize ?? entry.contentRect.height;
              if (key === undefined || current.get(key) === height) continue;
              next ??= new Map(current);
              next.set(key, height);
            }
            return next ?? current;
          }),
        ),
  );
  useEffect(() => () => rowObserver?.disconnect(), [rowObserver]);

  // The viewport's own height decides how many rows fit.
  useEffect(() => {
    const element = viewport.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() =>
      setScroll((current) =>
        current.height === element.clientHeight ? current : { ...current, height: element.clientHeight },
      ),
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const observeRow = useCallback(
    (element: HTMLDivElement | null) => {
      if (!element || !rowObserver) return;
      rowObserver.observe(element);
      return () => rowObserver.unobserve(element);
    },
    [rowObserver],
  );

  // Keys and estimates change with the items only; each measurement then costs one lookup per row.
  const keys = useMemo(() => items.map(itemKey), [items, itemKey]);
  const estimates = useMemo(() => items.map(estimateHeight), [items, estimateHeight]);
  const offsets = useMemo(
    () => rowOffsets(keys.map((key, i) => measured.get(key) ?? estimates[i] ?? 0)),
    [keys, estimates, measured],
  );
  const total = offsets[items.length] ?? 0;
  // While following, the window is the end of the list, even before the scroll position has caught up.
  const top = following ? Math.max(0, total - scroll.height) : scroll.top;
  const { start, end } = visibleRows(offsets, top, scroll.height, OVERSCAN_PX);

  useLayoutEffect(() => {
    const element = viewport.current;
    if (following && element) element.scrollTop = element.scrollHeight;
  });

  function onScroll() {
    const element = viewport.current;
    if (!element) return;
    const atEnd = element.scrollHeight - element.scrollTop - element.clientHeight <= END_SLACK_PX;
    // Only the user moves up; rows growing below a followed end never do.
    const movedUp = element.scrollTop < lastScrollTop.current - 1;
    lastScrollTop.current = element.scrollTop;
    setScroll({ top: element.scrollTop, height: element.clientHeight });
    if (atEnd) setFollowing(true);
    else if (movedUp) setFollowing(false);
  }

  return (
    <div className="vlog">
      <div
        ref={viewport}
        className="vlog-viewport"
        role="region"
        aria-label={label}
        tabIndex={0}
        onScroll={onScroll}
      >
        {items.length === 0 ? (
          empty
        ) : (
          <>
            <div style={{ height: offsets[start] ?? 0 }} aria-hidden="true" />
            {items.slice(start, end).map((item, i) => {
              const key = keys[start + i] ?? itemKey(item);
              return (
                <div key={key} ref={observeRow} data-row-key={key} className="vlog-row">
                  {renderItem(item)}
                </div>
              );
            })}
            <div style={{ height: total - (offsets[end] ?? total) }} aria-hidden="true" />
          </>
        )}
      </div>
      {!following && (
        <button
          type="button"
          className="vlog-jump button-primary button-small"
          onClick={() => setFollowing(true)}
        >
          Jump to latest ↓
        </button>
      )}
    </div>
  );
}
