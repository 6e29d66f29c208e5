import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface ComboboxOption<T> {
  key: string;
  value: T;
  /** What the option shows; `label` is its accessible name and the text put in the input. */
  label: string;
  detail?: ReactNode;
}

interface ComboboxProps<T> {
  id: string;
  label: string;
  hint?: ReactNode;
  /** The chosen option's label, shown while the list is closed. */
  selectedLabel: string;
  /** The text typed since the list opened (the search). */
  query: string;
  onQueryChange: (query: string) => void;
  options: ComboboxOption<T>[];
  onSelect: (value: T) => void;
  /** A line under the options: loading, an error, the empty state. */
  status?: ReactNode;
  /** More results exist: shown as a last option that loads them. */
  onLoadMore?: () => void;
  loadMoreLabel?: string;
  disabled?: boolean;
  placeholder?: string;
}

/**
 * An editable combobox (WAI-ARIA 1.2 list autocomplete): typing searches, arrows move through the
 * options, Enter chooses, Escape closes and restores the chosen value, Tab leaves.
 */
export function Combobox<T>({
  id,
  label,
  hint,
  selectedLabel,
  query,
  onQueryChange,
  options,
  onSelect,
  status,
  onLoadMore,
  loadMoreLabel = 'Load more',
  disabled = false,
  placeholder,
}: ComboboxProps<T>) {
  const listId = useId();
  const hintId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  const count = options.length + (onLoadMore ? 1 : 0);
  const activeIndex = Math.min(active, count - 1);
  const optionId = (index: number) => `${id}-option-${index}`;

  useEffect(() => {
    if (!open || activeIndex < 0) return;
    list.current
      ?.querySelector(`#${CSS.escape(optionId(activeIndex))}`)
      ?.scrollIntoView({ block: 'nearest' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- optionId depends on id only
  }, [open, activeIndex, id]);

  function choose(index: number) {
    if (index === options.length && onLoadMore) {
      onLoadMore();
      return;
    }
    const option = options[index];
    if (!option) return;
    onSelect(option.value);
    onQueryChange('');
    setOpen(false);
  }

  function close() {
    setOpen(false);
    onQueryChange('');
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) setOpen(true);
        else setActive(Math.min(activeIndex + 1, count - 1));
        return;
      case 'ArrowUp':
        event.preventDefault();
        setOpen(true);
        setActive(Math.max(activeIndex - 1, 0));
        return;
      case 'Home':
      case 'End':
        if (!open) return;
        event.preventDefault();
        setActive(event.key === 'Home' ? 0 : count - 1);
        return;
      case 'Enter':
        if (!open) return;
        // Enter picks the option; it must not also submit the form around the picker.
        event.preventDefault();
        choose(activeIndex);
        return;
      case 'Escape':
        if (!open) return;
        event.preventDefault();
        event.stopPropagation();
        close();
        return;
      case 'Tab':
        if (open) close();
        return;
    }
  }

  const expanded = open && !disabled;
  return (
    <div className="field combobox">
      <label htmlFor={id}>{label}</label>
      <div className="combobox-control">
        <input
          id={id}
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && activeIndex >= 0 ? optionId(activeIndex) : undefined}
          aria-describedby={hint ? hintId : undefined}
          autoComplete="off"
          spellCheck={false}
          disabled={disabled}
          placeholder={placeholder}
          value={open ? query : selectedLabel}
          onFocus={(event) => event.target.select()}
          onClick={() => setOpen(true)}
          onChange={(event) => {
            const typed = event.target.value;
            // Typing into the closed box starts a search rather than editing the chosen value's label.
            const search =
              !open && typed.startsWith(selectedLabel) ? typed.slice(selectedLabel.length) : typed;
            setOpen(true);
            setActive(0);
            onQueryChange(search);
          }}
          onKeyDown={onKeyDown}
          onBlur={(event) => {
            if (!event.currentTarget.parentElement?.contains(event.relatedTarget)) close();
          }}
        />
        <button
          type="button"
          className="combobox-toggle"
          tabIndex={-1}
          aria-label={`Show ${label.toLowerCase()} options`}
          disabled={disabled}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => (open ? close() : setOpen(true))}
        >
          ▾
        </button>
        <div className="combobox-popup" hidden={!expanded}>
          <ul id={listId} role="listbox" aria-label={label} className="combobox-list" ref={list}>
            {options.map((option, index) => (
              <li
                key={option.key}
                id={optionId(index)}
                role="option"
                aria-selected={index === activeIndex}
                className="combobox-option"
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => setActive(index)}
                onClick={() => choose(index)}
              >
                <span className="combobox-option-label">{option.label}</span>
                {option.detail && <span className="combobox-option-detail">{option.detail}</span>}
              </li>
            ))}
            {onLoadMore && (
              <li
                id={optionId(options.length)}
                role="option"
                aria-selected={activeIndex === options.length}
                className="combobox-option combobox-more"
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => setActive(options.length)}
                onClick={() => choose(options.length)}
              >
                {loadMoreLabel}
              </li>
            )}
          </ul>
          {status && (
            <div className="combobox-status" role="status">
              {status}
            </div>
          )}
        </div>
      </div>
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
    </div>
  );
}
