import { useRef } from 'react';
import { MAX_IMAGES } from '../../../shared/api/image-limits';
import type { AttachedImage } from './image-files';

interface ImageAttachmentsProps {
  images: AttachedImage[];
  problems: string[];
  onFiles: (files: File[]) => void;
  onRemove: (id: string) => void;
}

/** The attach button, the thumbnails with their remove buttons, and why files were refused. */
export function ImageAttachments({ images, problems, onFiles, onRemove }: ImageAttachmentsProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="attachments">
      <div className="attachments-bar">
        <button
          type="button"
          className="button-secondary button-small"
          disabled={images.length >= MAX_IMAGES}
          onClick={() => input.current?.click()}
        >
          Attach images
        </button>
        <span className="field-hint">
          Or paste or drop them here. PNG, JPEG, GIF or WebP, up to 5 MiB each, {MAX_IMAGES} at most; the
          model must support images.
        </span>
        <input
          ref={input}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          multiple
          hidden
          aria-label="Image files"
          onChange={(event) => {
            onFiles([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
      </div>
      {images.length > 0 && (
        <ul className="thumbnails" aria-label="Attached images">
          {images.map((image) => (
            <li key={image.id} className="thumbnail">
              <img src={image.url} alt={image.name} />
              <button
                type="button"
                className="thumbnail-remove"
                aria-label={`Remove ${image.name}`}
                title={`Remove ${image.name}`}
                onClick={() => onRemove(image.id)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {problems.length > 0 && (
        <ul className="field-error attachment-problems" role="alert" aria-label="Images not attached">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
