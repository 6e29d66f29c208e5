/** Limits of `image_urls` (api-contract §15), shared by the service's checks and the app's attachments. */
export const MAX_IMAGES = 20;
export const MAX_IMAGE_URL_CHARS = 2048;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** The media types a data URL image may have. */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
