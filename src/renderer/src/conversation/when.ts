const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** When something happened, the way a list says it: "just now", "5 min ago", "3 h ago", else the date. */
export function formatWhen(iso: string, now: number = Date.now()): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const age = now - time;
  if (age < MINUTE) return 'just now';
  if (age < HOUR) return `${Math.floor(age / MINUTE)} min ago`;
  if (age < DAY) return `${Math.floor(age / HOUR)} h ago`;
  return new Date(time).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** How long from `start` to `end`: "0.4 s", "12 s", "3 min 5 s"; null when either is unreadable. */
export function formatDuration(start: string, end: string): string | null {
  const ms = Date.parse(end) - Date.parse(start);
  if (Number.isNaN(ms) || ms < 0) return null;
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < MINUTE) return `${Math.round(ms / 1000)} s`;
  const seconds = Math.round((ms % MINUTE) / 1000);
  return `${Math.floor(ms / MINUTE)} min${seconds ? ` ${seconds} s` : ''}`;
}

/** The exact time, for a tooltip. */
export function formatTimestamp(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : new Date(time).toLocaleString();
}

/** The time of day, for a row of the log. */
export function formatClock(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time)
    ? ''
    : new Date(time).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}
