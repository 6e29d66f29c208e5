import { useServerInfo } from '../api/server-queries';
import { Notice } from '../ui/Notice';
import { TextWithCode } from '../ui/TextWithCode';
import { describeDocker, describeSecrets, type Diagnosis } from './diagnostics';

function StatusItem({ diagnosis }: { diagnosis: Diagnosis }) {
  return (
    <li className={`status-item status-${diagnosis.tone}`}>
      <span className="status-dot" aria-hidden="true" />
      {diagnosis.label}
    </li>
  );
}

/** Docker and keychain state from /server_info, with the cause and the fix when something is wrong. */
export function StatusStrip() {
  const info = useServerInfo();
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
        <Notice tone="error" title="The service status is not available">
          <p>{info.error.message}</p>
        </Notice>
      </section>
    );
  }
  const diagnoses = [describeDocker(info.data.docker), describeSecrets(info.data)];
  const failing = diagnoses.some((d) => d.tone === 'error');
  return (
    <section className="status" aria-label="Service status">
      <div className="status-row">
        <ul className="status-strip">
          {diagnoses.map((d) => (
            <StatusItem key={d.label} diagnosis={d} />
          ))}
        </ul>
        {failing && (
          <button
            type="button"
            className="button-secondary button-small"
            disabled={info.isFetching}
            onClick={() => void info.refetch()}
          >
            {info.isFetching ? 'Checking…' : 'Check again'}
          </button>
        )}
        <span className="status-version">Dockhand {info.data.version}</span>
      </div>
      {diagnoses.map(
        ({ tone, label, problem }) =>
          problem && (
            <Notice key={label} tone={tone} title={problem.headline}>
              <p>
                <TextWithCode text={problem.cause} />
              </p>
              {problem.fix && (
                <p>
                  <strong>Fix:</strong> <TextWithCode text={problem.fix} />
                </p>
              )}
            </Notice>
          ),
      )}
    </section>
  );
}
