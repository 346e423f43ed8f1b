// Pins AU-7 for function tools: a tool with `auth` pauses for consent when there is no credential,
// finds it at ctx.credential once there is one, refreshes once on a CredentialRejectedError and
// asks again when that fails too. The full OAuth round trip against a real provider is in
// @adkit/auth's tests.
import { describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { ConfigError, credentialKeyOf, type AuthConfig, type AuthCredential, type CredentialManager } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { CredentialRejectedError, PENDING_AUTHORIZATION, functionTool } from '../src/index.js';

const auth: AuthConfig = {
  authScheme: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: 'https://idp.test/a', tokenUrl: 'https://idp.test/t' } } },
  rawAuthCredential: { authType: 'oauth2', oauth2: { clientId: 'app', clientSecret: 'shh' } },
};

/** A manager holding one credential per key; `forceRefresh` swaps in the next token, if any. */
function manager(tokens: string[]): CredentialManager & { refreshes: number } {
  let current: AuthCredential | undefined = tokens.length ? { authType: 'oauth2', oauth2: { accessToken: tokens.shift()! } } : undefined;
  return {
    refreshes: 0,
    async getCredential(config, _scope, options) {
      expect(await credentialKeyOf(config)).toBe(await credentialKeyOf(auth));
      if (options?.forceRefresh) {
        this.refreshes++;
        current = tokens.length ? { authType: 'oauth2', oauth2: { accessToken: tokens.shift()! } } : undefined;
      }
      return current;
    },
    createRequest: async (config) => config,
    completeRequest: async () => {},
  };
}

function tool(seen: string[]) {
  return functionTool({
    name: 'list_repos',
    description: 'Lists the user\'s repositories.',
    parameters: Type.Object({ owner: Type.String() }),
    auth,
    execute: async ({ owner }, ctx) => {
      const token = ctx.credential?.oauth2?.accessToken ?? '';
      seen.push(token);
      if (token.startsWith('stale')) throw new CredentialRejectedError();
      return { owner, repos: ['adkit'] };
    },
  });
}

describe('functionTool({auth})', () => {
  it('AU-7: with no credential the call asks for one and answers pending; execute does not run', async () => {
    const seen: string[] = [];
    const ctx = createToolContext({ credentials: manager([]) });
    expect(await tool(seen).run(ctx, { owner: 'me' })).toEqual(PENDING_AUTHORIZATION);
    expect(seen).toEqual([]);
    const asked = ctx.actions.requestedAuthConfigs![ctx.functionCallId]!;
    expect(asked.authScheme).toEqual(auth.authScheme);
    expect(JSON.stringify(asked)).not.toContain('shh');
    expect(ctx.actions.skipSummarization).toBe(true);
  });

  it('AU-7: with a credential execute runs and finds it at ctx.credential', async () => {
    const seen: string[] = [];
    const ctx = createToolContext({ credentials: manager(['good-1']) });
    expect(await tool(seen).run(ctx, { owner: 'me' })).toEqual({ owner: 'me', repos: ['adkit'] });
    expect(seen).toEqual(['good-1']);
    expect(ctx.actions.requestedAuthConfigs).toBeUndefined();
  });

  it('AU-6: a rejected credential is refreshed once and execute runs again', async () => {
    const seen: string[] = [];
    const credentials = manager(['stale-1', 'good-2']);
    const ctx = createToolContext({ credentials });
    expect(await tool(seen).run(ctx, { owner: 'me' })).toEqual({ owner: 'me', repos: ['adkit'] });
    expect(seen).toEqual(['stale-1', 'good-2']);
    expect(credentials.refreshes).toBe(1);
  });

  it('AU-6: rejected again after the refresh, or nothing to refresh with: the user is asked again, once', async () => {
    for (const tokens of [['stale-1', 'stale-2'], ['stale-1']]) {
      const seen: string[] = [];
      const credentials = manager(tokens);
      const ctx = createToolContext({ credentials });
      expect(await tool(seen).run(ctx, { owner: 'me' })).toEqual(PENDING_AUTHORIZATION);
      expect(credentials.refreshes).toBe(1);
      expect(Object.keys(ctx.actions.requestedAuthConfigs!)).toEqual([ctx.functionCallId]);
    }
  });

  it('a bad auth option is a ConfigError at construction', () => {
    expect(() => functionTool({ name: 't', description: 'd', parameters: Type.Object({}), auth: {} as AuthConfig, execute: () => ({}) })).toThrow(ConfigError);
  });
});
