import { useId, useState } from 'react';
import { useServerInfo } from '../api/server-queries';
import { Notice } from '../ui/Notice';
import { TextWithCode } from '../ui/TextWithCode';
import { describeDocker, describeSecrets, type Diagnosis } from './diagnostics';

/** A chip of the status bar; one with a problem opens its cause and fix, the rest are plain text. */
function StatusChip({
  diagnosis,
  open,
  onToggle,
  detailsId,
}: {
  diagnosis: Diagnosis;
  open: boolean;
  onToggle: () => void;
  detailsId: string;
}) {
  const content = (
    <>
      <span className="status-dot" aria-hidden="true" />
      {diagnosis.label}
    </>
  );
  return (
    <li className={`status-item status-${diagnosis.tone}`}>
      {diagnosis.problem ? (
        <button
          type="button"
          className="status-chip"
          aria-expanded={open}
          aria-controls={open ? detailsId : undefined}
          onClick={onToggle}
        >
          {content}
        </button>
      ) : (
        content
      )}
    </li>
  );
}

/**
 * The status bar: Docker and keychain state from /server_info as chips. A problem is one chip, not a
 * banner: its cause and fix open on click, above the bar, and close with Escape or a second click.
 */
export function StatusStrip() {
  const info = useServerInfo();
  const [openLabel, setOpenLabel] = useState<string | null>(null);
  const detailsId = useId();
  if (info.isPending) {
    return (
      <section className="status" aria-label="Service status">
        <p className="status-strip status-checking">Checking Docker and the keychain…</p>
      </section>
    );
  }
  if (info.isError) {
    return (
      <section className="status" aria-label="Service status">
        <p className="status-strip status-error" role="alert">
          The service status is not available: {info.error.message}
        </p>
      </section>
    );
  }
  const diagnoses = [describeDocker(info.data.docker), describeSecrets(info.data)];
  const failing = diagnoses.some((d) => d.tone === 'error');
  const open = diagnoses.find((d) => d.label === openLabel && d.problem);

  return (
    <section
      className="status"
      aria-label="Service status"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) setOpenLabel(null);
      }}
    >
      {open?.problem && (
        <div className="status-details" id={detailsId}>
          <Notice tone={open.tone} title={open.problem.headline}>
            <p>
              <TextWithCode text={open.problem.cause} />
            </p>
            {open.problem.fix && (
              <p>
                <strong>Fix:</strong> <TextWithCode text={open.problem.fix} />
              </p>
            )}
          </Notice>
        </div>
      )}
      <div className="status-row">
        <ul className="status-strip">
          {diagnoses.map((d) => (
            <StatusChip
              key={d.label}
              diagnosis={d}
              open={open === d}
              detailsId={detailsId}
              onToggle={() => setOpenLabel(open === d ? null : d.label)}
            />
          ))}
        </ul>
        {failing && (
          <button
            type="button"
            className="status-chip"
            disabled={info.isFetching}
            onClick={() => void info.refetch()}
          >
            {info.isFetching ? 'Checking…' : 'Check again'}
          </button>
        )}
        <span className="status-version">Dockhand {info.data.version}</span>
      </div>
    </section>
  );
}
