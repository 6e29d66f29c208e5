import type { SandboxSpecInfo } from '../../../shared/api/sandbox-specs';
import { useSandboxSpecs } from '../api/sandbox-queries';
import { Notice } from '../ui/Notice';
import { TextWithCode } from '../ui/TextWithCode';

function ImageState({ spec }: { spec: SandboxSpecInfo }) {
  const progress = spec.image_progress;
  if (progress?.state === 'pulling' || progress?.state === 'building') {
    return (
      <div className="image-progress" role="status">
        <span>{progress.message}</span>
        <progress
          max={100}
          value={progress.percent ?? undefined}
          aria-label={progress.state === 'pulling' ? `Pulling ${spec.id}` : 'Building Dockhand’s own image'}
          aria-valuetext={progress.percent === null ? 'not known yet' : `${Math.round(progress.percent)}%`}
        />
        {progress.percent !== null && <span>{Math.round(progress.percent)}%</span>}
      </div>
    );
  }
  if (progress?.state === 'failed') {
    return (
      <Notice tone="error" title="The image could not be pulled or built">
        <p>
          <TextWithCode text={progress.message} />
        </p>
        <p>
          Check the registry is reachable, or build Dockhand’s own image with{' '}
          <code>npm run sandbox:image</code>.
        </p>
      </Notice>
    );
  }
  if (spec.image_present) return <span className="badge badge-ok">Image present</span>;
  return (
    <span
      className="badge badge-warning"
      title="Pulled when a sandbox first starts from it; where it cannot be, Dockhand’s own image stands in"
    >
      Not on this machine: pulled at first start
    </span>
  );
}

/** The images sandboxes are made from, the default first, with whether each is present or being pulled. */
export function SandboxSpecList() {
  const specs = useSandboxSpecs();
  if (specs.isPending) return <p className="muted">Loading sandbox images…</p>;
  if (specs.isError) {
    return (
      <Notice tone="error" title="Sandbox images could not be loaded">
        <p>{specs.error.message}</p>
      </Notice>
    );
  }
  return (
    <ul className="conversation-list" aria-label="Sandbox images">
      {specs.data.map((spec, index) => (
        <li key={spec.id} className="conversation-item">
          <div className="conversation-summary">
            <p className="sandbox-title">
              <span>{spec.title}</span>
              {index === 0 && <span className="badge badge-info">Default</span>}
            </p>
            <p className="conversation-meta">
              <code>{spec.id}</code>
              <span>
                <TextWithCode text={spec.description} />
              </span>
            </p>
          </div>
          <ImageState spec={spec} />
        </li>
      ))}
    </ul>
  );
}
