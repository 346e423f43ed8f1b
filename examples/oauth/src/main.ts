import { createCredentialReply, credentialManager, InMemoryCredentialService, pendingCredentialRequests } from '@adkit/auth';
import { InMemoryRunner, LlmAgent, createUserContent, stringifyContent, type Content } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { CredentialRejectedError, functionTool } from '@adkit/function-tool';
import Type from 'typebox';
import { startLocalProvider } from './localProvider.js';

const idp = await startLocalProvider(); // offline: an OpenID provider and a calendar API on 127.0.0.1
const listEvents = functionTool({
  name: 'list_events',
  description: "Today's events in the user's calendar.",
  parameters: Type.Object({}),
  auth: {
    authScheme: { type: 'openIdConnect', openIdConnectUrl: `${idp.issuer}/.well-known/openid-configuration`, scopes: ['openid', 'offline_access', 'calendar'] },
    rawAuthCredential: { authType: 'openIdConnect', oauth2: { clientId: idp.clientId, clientSecret: idp.clientSecret, redirectUri: idp.redirectUri } },
  },
  execute: async (_args, ctx) => {
    const response = await fetch(idp.apiUrl, { headers: { authorization: `Bearer ${ctx.credential!.oauth2!.accessToken}` } });
    if (response.status === 401) throw new CredentialRejectedError(); // refreshed once, then asked again
    return (await response.json()) as Record<string, unknown>;
  },
});
const model = new ScriptedModel([functionCallResponse([{ name: 'list_events', args: {} }]), textResponse('You have a standup at nine.')]);
const credentials = credentialManager({ credentialService: new InMemoryCredentialService(), allowInsecureRequests: true }); // http: for 127.0.0.1 only
const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'assistant', model, tools: [listEvents] }), credentials, autoCreateSession: true });
const send = async (newMessage: Content) => {
  for await (const event of runner.runAsync({ userId: 'ann', sessionId: 's1', newMessage }))
    if (event.errorCode) console.error(`${event.errorCode}: ${event.errorMessage}`);
    else if (event.content) console.log(stringifyContent(event).replace(/"(authUri|state|callDigest|id|functionCallId)":"[^"]*"/g, '"$1":"…"'));
};

await send(createUserContent("What's on today?")); // pauses: the user must consent first
const session = await runner.sessionService.getSession({ appName: runner.appName, userId: 'ann', sessionId: 's1' });
const [request] = pendingCredentialRequests(session!.events);
console.log(`send the user to: ${new URL(request!.authUri!).origin}/auth?…`);
const authResponseUri = await idp.consentAs('ann', request!.authUri!); // your OAuth callback receives this URL
await send(createCredentialReply(request!, { authResponseUri }));
await idp.close();
