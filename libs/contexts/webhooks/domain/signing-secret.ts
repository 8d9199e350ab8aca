/**
 * Signing secrets are stored encrypted (platform SecretBox) under this purpose, which is
 * authenticated with each ciphertext: a sealed value from another column never opens as one.
 */
export const SIGNING_SECRET_PURPOSE = 'webhook_endpoints.secret';
