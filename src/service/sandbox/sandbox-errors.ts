import type { SandboxStatus } from '../../shared/api/sandboxes';
import { HttpError, httpError } from '../http/errors';
import { ValidationFailed, type Location } from '../http/validation';

export function sandboxNotFound(id: string): HttpError {
  return httpError(404, `Sandbox ${id} not found`);
}

export function tooManyLiveSandboxes(max: number): HttpError {
  return httpError(409, `Too many live sandboxes (${max}). Pause or delete one and retry.`);
}

/** 409 for an operation a sandbox in ERROR or MISSING cannot take (only delete is allowed). */
export function sandboxBroken(id: string, status: SandboxStatus, error: string | null): HttpError {
  const why = error ? `: ${error}` : '';
  return httpError(409, `Sandbox ${id} is ${status}${why}. Only delete is allowed.`);
}

export function sandboxNotRunning(id: string, status: SandboxStatus): HttpError {
  return httpError(409, `Sandbox ${id} is not running (${status})`);
}

/** 422 `value_error` for a `sandbox_spec_id` that names no spec. */
export function unknownSpec(id: string, location: Location): ValidationFailed {
  return new ValidationFailed([
    {
      type: 'value_error',
      loc: [location, 'sandbox_spec_id'],
      msg: `Value error, Unknown sandbox spec ${id}`,
      input: id,
    },
  ]);
}
