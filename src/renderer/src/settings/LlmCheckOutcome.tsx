import type { LlmCheckResult } from '../../../shared/api/llm-check';
import { Notice } from '../ui/Notice';
import { TextWithCode } from '../ui/TextWithCode';

const TITLES: Record<NonNullable<LlmCheckResult['problem']>, string> = {
  auth: 'The provider rejected the API key',
  unreachable: 'The model server could not be reached',
  not_found: 'The model was not found',
  rate_limit: 'The provider is rate limiting requests',
  out_of_credits: 'The account is out of credits',
  unavailable: 'The provider is unavailable',
  missing_key: 'An API key is needed',
  other: 'The model did not answer',
};

const KEY_SOURCES: Record<LlmCheckResult['key_source'], string> = {
  request: 'with the key typed above',
  stored: 'with the stored key',
  none: 'without a key',
};

/** The outcome of "Test connection", announced as it arrives. */
export function LlmCheckOutcome({ result }: { result: LlmCheckResult }) {
  if (result.ok) {
    return (
      <Notice tone="ok" title="Connected" live>
        <p>
          {result.message} Tested {KEY_SOURCES[result.key_source]}.
        </p>
      </Notice>
    );
  }
  return (
    <Notice tone="error" title={TITLES[result.problem ?? 'other']} live>
      <p>
        <TextWithCode text={result.message} />
      </p>
      {result.fix && (
        <p>
          <strong>Fix:</strong> {result.fix}
        </p>
      )}
      <p className="muted">Tested {KEY_SOURCES[result.key_source]}.</p>
    </Notice>
  );
}
