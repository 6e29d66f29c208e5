import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface Tab<K extends string> {
  key: K;
  label: string;
  /** A count or state shown beside the label (e.g. the number of changed files). */
  badge?: ReactNode;
}

interface TabsProps<K extends string> {
  tabs: readonly Tab<K>[];
  selected: K;
  onSelect: (key: K) => void;
  label: string;
  /** The selected tab's panel. */
  children: ReactNode;
}

/** The tab `step` places from `index`, wrapping at both ends. */
export function stepTab(index: number, step: number, count: number): number {
  return (((index + step) % count) + count) % count;
}

/**
 * A tab list as the ARIA pattern describes it: one tab in the Tab order, Left/Right (and Home/End) move
 * between tabs and select them, the panel follows in the Tab order.
 */
export function Tabs<K extends string>({ tabs, selected, onSelect, label, children }: TabsProps<K>) {
  const baseId = useId();
  const buttons = useRef(new Map<K, HTMLButtonElement>());
  const tabId = (key: K) => `${baseId}-tab-${key}`;
  const panelId = `${baseId}-panel`;

  function onKeyDown(event: KeyboardEvent) {
    const index = tabs.findIndex((tab) => tab.key === selected);
    const target = {
      ArrowRight: stepTab(index, 1, tabs.length),
      ArrowLeft: stepTab(index, -1, tabs.length),
      Home: 0,
      End: tabs.length - 1,
    }[event.key];
    const next = target === undefined ? undefined : tabs[target];
    if (!next) return;
    event.preventDefault();
    onSelect(next.key);
    buttons.current.get(next.key)?.focus();
  }

  return (
    <div className="tabs">
      <div className="tab-list" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
        {tabs.map((tab) => {
          const isSelected = tab.key === selected;
          return (
            <button
              key={tab.key}
              ref={(element) => {
                if (element) buttons.current.set(tab.key, element);
                else buttons.current.delete(tab.key);
              }}
              id={tabId(tab.key)}
              type="button"
              role="tab"
              className="tab"
              aria-selected={isSelected}
              aria-controls={panelId}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => onSelect(tab.key)}
            >
              {tab.label}
              {tab.badge !== undefined && <span className="tab-badge">{tab.badge}</span>}
            </button>
          );
        })}
      </div>
      <div className="tab-panel" role="tabpanel" id={panelId} aria-labelledby={tabId(selected)} tabIndex={0}>
        {children}
      </div>
    </div>
  );
}
