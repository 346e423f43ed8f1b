import { REQUEST_CREDENTIAL_FUNCTION, type Content, type CredentialRequest } from '@adkit/flow';

/**
 * The reply to a consent (AU-4), as ADK's clients send it: the request's `AuthConfig` with the
 * URL the provider redirected the user to. The flow reads only that URL (and the redirect URI).
 */
export function credentialReply(request: CredentialRequest, authResponseUri: string): Content {
  const asked = request.authConfig.exchangedAuthCredential;
  const authConfig = {
    ...request.authConfig,
    exchangedAuthCredential: { authType: asked?.authType ?? 'oauth2', oauth2: { ...asked?.oauth2, authResponseUri } },
  };
  return { role: 'user', parts: [{ functionResponse: { id: request.requestCall.id!, name: REQUEST_CREDENTIAL_FUNCTION, response: authConfig as unknown as Record<string, unknown> } }] };
}
