import type { AuthConfig, AuthCredential } from './authTypes.js';

/**
 * A credential usable as it is (AU-6 step 2): an API key, or an HTTP credential with a token or a
 * password, from the exchanged credential first, then the raw one. OAuth needs a manager.
 */
export function readyCredential(config: AuthConfig): AuthCredential | undefined {
  for (const credential of [config.exchangedAuthCredential, config.rawAuthCredential]) {
    if (!credential) continue;
    if (credential.authType === 'apiKey' && typeof credential.apiKey === 'string' && credential.apiKey !== '') return credential;
    const http = credential.http?.credentials;
    if (credential.authType === 'http' && http && (http.token || (http.username !== undefined && http.password !== undefined)))
      return credential;
  }
  return undefined;
}
