import { REQUEST_CREDENTIAL_FUNCTION, type AuthConfig, type Content } from '@adkit/flow';
import type { PendingCredentialRequest } from './pendingCredentialRequests.js';

/**
 * The user message that answers a credential request (AU-4): a function response of the request's
 * id and name whose payload is the request's `AuthConfig` with `authResponseUri` (the full URL the
 * provider redirected the user to) and `redirectUri` filled in, as ADK's clients send it. The flow
 * reads only those two fields; the scheme and endpoints come from its own stored request.
 */
export function createCredentialReply(
  request: Pick<PendingCredentialRequest, 'call' | 'authConfig'>,
  answer: { authResponseUri: string; redirectUri?: string },
): Content {
  const id = request.call.id;
  if (!id) throw new TypeError('createCredentialReply: the request call has no id; pass an entry of pendingCredentialRequests(events).');
  const asked = request.authConfig.exchangedAuthCredential;
  const redirectUri = answer.redirectUri ?? asked?.oauth2?.redirectUri;
  const authConfig: AuthConfig = {
    ...request.authConfig,
    exchangedAuthCredential: {
      authType: asked?.authType ?? 'oauth2',
      oauth2: { ...asked?.oauth2, authResponseUri: answer.authResponseUri, ...(redirectUri ? { redirectUri } : {}) },
    },
  };
  return { role: 'user', parts: [{ functionResponse: { id, name: REQUEST_CREDENTIAL_FUNCTION, response: authConfig as unknown as Record<string, unknown> } }] };
}
