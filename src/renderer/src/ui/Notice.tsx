import { useId, type ReactNode } from 'react';
import type { Tone } from './tone';

interface NoticeProps {
  tone: Tone | 'info';
  title?: string;
  children?: ReactNode;
  /** Announce it as it appears (the outcome of an action) rather than leave it for the reader to find. */
  live?: boolean;
}

/** A boxed message: information, warning or error, named by its title. */
export function Notice({ tone, title, children, live = false }: NoticeProps) {
  const titleId = useId();
  const role = live ? (tone === 'error' ? 'alert' : 'status') : 'note';
  return (
    <div className={`notice notice-${tone}`} role={role} aria-labelledby={title ? titleId : undefined}>
      {title && (
        <p id={titleId} className="notice-title">
          {title}
        </p>
      )}
      {children}
    </div>
  );
}
