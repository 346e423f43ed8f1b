import { canonicalJson, digestText } from '../content/canonicalJson.js';
import type { AuthConfig } from './authTypes.js';
import { redactCredential } from './redactAuthConfig.js';

/**
 * The key a credential is stored under: the config's `credentialKey`, else (AU-1) a hash of the
 * scheme and the raw credential — its secrets left out, so rotating a client secret keeps the
 * users' tokens.
 */
export async function credentialKeyOf(config: AuthConfig): Promise<string> {
  if (typeof config.credentialKey === 'string' && config.credentialKey !== '') return config.credentialKey;
  const raw = config.rawAuthCredential ? redactCredential(config.rawAuthCredential) : null;
  const digest = await digestText(canonicalJson({ scheme: config.authScheme, raw }));
  return `adk_${config.authScheme.type}_${digest.slice(0, 32)}`;
}
