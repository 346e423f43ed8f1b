// The parts the end-to-end tests share: a provider, the API behind it, the tool that calls it with
// functionTool({auth}), and a runner on a durable store with the encrypted credential service.
import { Type } from 'typebox';
import type { AuthConfig, CredentialManager, SessionService } from '@adkit/flow';
import { CredentialRejectedError, functionTool } from '@adkit/function-tool';
import { credentialManager, SessionCredentialService, InMemoryCredentialService, type CredentialService } from '../../src/index.js';
import type { OidcServer } from './oidcServer.js';

/** The tool's auth config: OpenID Connect discovery from the provider, the app's client. */
export function apiAuth(idp: OidcServer): AuthConfig {
  return {
    authScheme: { type: 'openIdConnect', openIdConnectUrl: `${idp.issuer}/.well-known/openid-configuration`, scopes: ['openid', 'offline_access', 'api:read'] },
    rawAuthCredential: { authType: 'openIdConnect', oauth2: { clientId: idp.clientId, clientSecret: idp.clientSecret, redirectUri: idp.redirectUri } },
  };
}

/** `list_repos`: GET /repos with the user's token; a 401 is a CredentialRejectedError. */
export function listRepos(idp: OidcServer, apiUrl: string) {
  return functionTool({
    name: 'list_repos',
    description: "Lists the user's repositories.",
    parameters: Type.Object({}),
    auth: apiAuth(idp),
    execute: async (_args, ctx) => {
      const response = await fetch(`${apiUrl}/repos`, { headers: { authorization: `Bearer ${ctx.credential!.oauth2!.accessToken}` }, signal: ctx.signal });
      if (response.status === 401) throw new CredentialRejectedError();
      return (await response.json()) as Record<string, unknown>;
    },
  });
}

export const ENCRYPTION_KEY = new Uint8Array(32).fill(7);

export function manager(options: { service?: CredentialService; sessionService?: SessionService; now?: () => number } = {}): {
  credentials: CredentialManager;
  service: CredentialService;
} {
  const service =
    options.service ??
    (options.sessionService ? new SessionCredentialService({ sessionService: options.sessionService, encryptionKey: ENCRYPTION_KEY }) : new InMemoryCredentialService());
  return { credentials: credentialManager({ credentialService: service, allowInsecureRequests: true, now: options.now }), service };
}
