import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

export interface MenuAction {
  label: string;
  onSelect: () => void;
}

interface ActionMenuProps {
  /** The button's accessible name, e.g. "More actions for <title>". */
  label: string;
  actions: readonly MenuAction[];
  /** Focus the button (after an action that replaced it comes back). */
  autoFocus?: boolean;
}

/**
 * A "⋯" button that opens a menu of actions (the ARIA menu button pattern): arrows move, Enter picks,
 * Escape or a click elsewhere closes and focus goes back to the button.
 */
export function ActionMenu({ label, actions, autoFocus = false }: ActionMenuProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    const close = (event: MouseEvent) => {
      if (!menu.current?.contains(event.target as Node) && event.target !== button.current) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  function onMenuKey(event: KeyboardEvent<HTMLUListElement>) {
    const items = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="menuitem"]')];
    const index = items.indexOf(document.activeElement as HTMLButtonElement);
    const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (step !== undefined) {
      event.preventDefault();
      items[(index + step + items.length) % items.length]?.focus();
    } else if (event.key === 'Escape' || event.key === 'Tab') {
      event.preventDefault();
      setOpen(false);
      button.current?.focus();
    }
  }

  return (
    <div className="action-menu">
      <button
        ref={button}
        type="button"
        className="button-secondary button-small action-menu-button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        autoFocus={autoFocus}
        onClick={() => setOpen(!open)}
      >
        ⋯
      </button>
      {open && (
        <ul
          ref={menu}
          id={menuId}
          className="action-menu-list"
          role="menu"
          aria-label={label}
          onKeyDown={onMenuKey}
        >
          {actions.map((action) => (
            <li key={action.label} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                onClick={() => {
                  setOpen(false);
                  action.onSelect();
                }}
              >
                {action.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
