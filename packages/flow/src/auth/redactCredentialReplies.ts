import type { Content } from '../content/content.js';
import { REQUEST_CREDENTIAL_FUNCTION } from './authTypes.js';

/**
 * The user message as it is saved: in each `adk_request_credential` reply the response URI (it
 * holds the authorization code) and any credential the client put in are removed. The flow reads
 * the URI from the message of the running invocation, so it is exchanged once and never stored.
 * The message itself is returned when it has no credential reply.
 */
export function redactCredentialReplies(content: Content): Content {
  const parts = content.parts;
  if (!parts?.some((part) => part.functionResponse?.name === REQUEST_CREDENTIAL_FUNCTION)) return content;
  return {
    ...content,
    parts: parts.map((part) => {
      const response = part.functionResponse;
      if (response?.name !== REQUEST_CREDENTIAL_FUNCTION) return part;
      return { ...part, functionResponse: { ...response, response: { received: true } } };
    }),
  };
}
