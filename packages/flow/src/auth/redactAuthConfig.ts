import type { AuthConfig, AuthCredential } from './authTypes.js';

const SECRET_OAUTH2_FIELDS = ['clientSecret', 'authCode', 'authResponseUri', 'accessToken', 'refreshToken', 'idToken'] as const;

/**
 * A copy of the config with every secret removed (client secret, codes, response URI, tokens, API
 * keys, HTTP passwords and tokens, service-account keys): what the flow saves in events and shows
 * clients. The app's code still holds the full config and passes it to the manager.
 */
export function redactAuthConfig(config: AuthConfig): AuthConfig {
  const copy: AuthConfig = { authScheme: structuredClone(config.authScheme) };
  if (config.rawAuthCredential) copy.rawAuthCredential = redactCredential(config.rawAuthCredential);
  if (config.exchangedAuthCredential) copy.exchangedAuthCredential = redactCredential(config.exchangedAuthCredential);
  if (typeof config.credentialKey === 'string') copy.credentialKey = config.credentialKey;
  return copy;
}

/** A credential without its secrets. */
export function redactCredential(credential: AuthCredential): AuthCredential {
  const copy: AuthCredential = { authType: credential.authType };
  if (credential.resourceRef !== undefined) copy.resourceRef = credential.resourceRef;
  if (credential.http) copy.http = { scheme: credential.http.scheme, credentials: {} };
  if (credential.http?.credentials.username !== undefined) copy.http!.credentials.username = credential.http.credentials.username;
  if (credential.oauth2) {
    const oauth2 = { ...credential.oauth2 };
    for (const field of SECRET_OAUTH2_FIELDS) delete oauth2[field];
    copy.oauth2 = structuredClone(oauth2);
  }
  if (credential.serviceAccount) {
    const { serviceAccountCredential: _key, ...rest } = credential.serviceAccount;
    copy.serviceAccount = structuredClone(rest);
  }
  return copy;
}
