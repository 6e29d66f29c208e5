import { isApiError } from '../api/api-error';
import { ROUTES } from '../routing';
import { Notice } from '../ui/Notice';
import { capitalized } from '../text';
import { TextWithCode } from '../ui/TextWithCode';

interface Explanation {
  title: string;
  fix: string | null;
  /** The fix is in Settings. */
  settings: boolean;
}

function explain(error: Error): Explanation {
  if (isApiError(error, 400) && error.code === 'CONFIGURATION$SETTINGS_NOT_FOUND') {
    return {
      title: 'Choose a language model first',
      fix: 'Conversations need a model: choose one in Settings.',
      settings: true,
    };
  }
  if (isApiError(error, 400) && error.code === 'STATUS$ERROR_LLM_AUTHENTICATION') {
    return {
      title: 'The model needs an API key',
      fix: 'Enter the API key of your model provider in Settings, or choose a local model.',
      settings: true,
    };
  }
  if (isApiError(error, 400) && /does not support image/i.test(error.message)) {
    return {
      title: 'The model cannot read images',
      fix: 'Remove the images, or choose a model that supports images in Settings.',
      settings: true,
    };
  }
  if (isApiError(error, 401) && /Unable to access repo/.test(error.message)) {
    return {
      title: 'The repository cannot be opened',
      fix: 'Check that the repository exists and that the git provider token in Settings can see it.',
      settings: true,
    };
  }
  if (isApiError(error, 503)) {
    return {
      title: 'Docker is not available',
      fix: 'Each conversation runs in a Docker sandbox. Start Docker (the status bar says what is wrong) and try again.',
      settings: false,
    };
  }
  return { title: 'The conversation could not start', fix: null, settings: false };
}

/** The message without a leading repeat of the title ("Docker is not available: …"). */
function withoutTitle(message: string, title: string): string {
  const prefix = `${title}: `;
  if (!message.startsWith(prefix)) return message;
  return capitalized(message.slice(prefix.length));
}

/** Why a conversation did not start (POST /api/conversations or /start), with the way out. */
export function StartFailure({ error }: { error: Error }) {
  const { title, fix, settings } = explain(error);
  return (
    <Notice tone="error" title={title} live>
      <p>
        <TextWithCode text={withoutTitle(error.message, title)} />
      </p>
      {fix && <p>{fix}</p>}
      {settings && (
        <p>
          <a href={ROUTES.settings}>Open Settings</a>
        </p>
      )}
    </Notice>
  );
}
