import { useMemo } from 'react';
import { diffLines } from './diff-lines';

/** A unified diff with added and removed lines colored; the `+`/`-` signs stay for copying and reading. */
export function DiffView({ diff, label }: { diff: string; label: string }) {
  const lines = useMemo(() => diffLines(diff), [diff]);
  return (
    <pre className="diff" aria-label={label} tabIndex={0}>
      {lines.map((line, index) => (
        <span key={index} className={`diff-line diff-${line.kind}`}>
          {line.text}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}
