// The credential protocol end to end with real parts (AU-2..AU-8): oidc-provider on 127.0.0.1, its
// login and consent pages submitted over HTTP as a browser would, a Hono API that checks bearer
// tokens against the provider, functionTool({auth}), a SQLite session store shared by two runners
// (a restart between the pause and the reply), and the encrypted credential service on that store.
// Then every place a secret could leak is searched for the token strings.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LlmAgent, Runner, createUserContent, credentialKeyOf, getFunctionResponses, type Event, type LlmRequest } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { SqliteSessionService } from '@adkit/session-sqlite';
import { otelPlugin } from '@adkit/otel';
import { devUiPlugin, serveDevUi } from '@adkit/dev-ui';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createCredentialReply, pendingCredentialRequests } from '../src/index.js';
import { consent, startOidcServer, type OidcServer } from './support/oidcServer.js';
import { startRestApi, type RestApi } from './support/restApi.js';
import { apiAuth, listRepos, manager } from './support/fixture.js';

let idp: OidcServer;
let api: RestApi;
let dir: string;
beforeAll(async () => {
  idp = await startOidcServer();
  api = await startRestApi(idp);
  dir = mkdtempSync(join(tmpdir(), 'adkit-auth-'));
});
afterAll(async () => {
  await api?.close();
  await idp?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function collect(gen: AsyncIterable<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of gen) events.push(event);
  return events;
}

describe('OAuth end to end', () => {
  it('AU-2..AU-5: a tool pauses for consent, the user consents on the provider, another process resumes the call, and no secret leaks anywhere', async () => {
    const path = join(dir, 'sessions.db');
    const logs: string[] = [];
    const logger = { warn: (...a: unknown[]) => logs.push(a.map(String).join(' ')), error: (...a: unknown[]) => logs.push(a.map(String).join(' ')) };
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('test');
    const plugins = () => [otelPlugin({ tracer, captureContent: true }), devUiPlugin()];

    // Process 1: the model calls the tool, which has no credential yet: the run pauses.
    const store1 = new SqliteSessionService({ path });
    const model1 = new ScriptedModel([functionCallResponse([{ name: 'list_repos', args: {}, id: 'call-1' }])]);
    const agent1 = new LlmAgent({ name: 'assistant', model: model1, instruction: 'Help {user:name?} with code.', tools: [listRepos(idp, api.url)] });
    const runner1 = new Runner({ appName: 'app', agent: agent1, sessionService: store1, credentials: manager({ sessionService: store1 }).credentials, plugins: plugins(), logger });
    await store1.createSession({ appName: 'app', userId: 'alice', sessionId: 's1' });
    const first = await collect(runner1.runAsync({ userId: 'alice', sessionId: 's1', newMessage: createUserContent('list my repos') }));
    expect(first.flatMap(getFunctionResponses).find((r) => r.id === 'call-1')!.response).toEqual({ status: 'Pending User Authorization.' });
    const [pending] = pendingCredentialRequests(first);
    expect(pending!.originalCall.id).toBe('call-1');
    expect(pending!.authUri).toMatch(new RegExp(`^${idp.issuer}/auth\\?`));
    const authUrl = new URL(pending!.authUri!);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('prompt')).toBe('consent');
    expect(authUrl.searchParams.get('state')).toBe(pending!.authConfig.exchangedAuthCredential!.oauth2!.state);
    expect(model1.requests).toHaveLength(1);
    store1.close();

    // The user consents on the provider's pages; the browser lands on the redirect URI.
    const responseUri = await consent(pending!.authUri!, idp.redirectUri, { login: 'alice' });
    const code = new URL(responseUri).searchParams.get('code')!;

    // Process 2: new store handle, new manager, new runner: the reply resumes the paused call.
    const store2 = new SqliteSessionService({ path });
    let secondRequest: LlmRequest | undefined;
    const model2 = new ScriptedModel([
      (request) => {
        secondRequest = request;
        return textResponse('You have adkit and notes.');
      },
    ]);
    const agent2 = new LlmAgent({ name: 'assistant', model: model2, instruction: 'Help {user:name?} with code.', tools: [listRepos(idp, api.url)] });
    const { credentials, service } = manager({ sessionService: store2 });
    const runner2 = new Runner({ appName: 'app', agent: agent2, sessionService: store2, credentials, plugins: plugins(), logger });
    const session = (await store2.getSession({ appName: 'app', userId: 'alice', sessionId: 's1' }))!;
    const [again] = pendingCredentialRequests(session.events);
    const second = await collect(runner2.runAsync({ userId: 'alice', sessionId: 's1', newMessage: createCredentialReply(again!, { authResponseUri: responseUri }) }));
    const answer = second.flatMap(getFunctionResponses).find((r) => r.id === 'call-1' && r.name === 'list_repos')!;
    expect(answer.response).toEqual({ owner: 'alice', repos: ['adkit', 'notes'] });
    expect(second.at(-1)!.content!.parts![0]!.text).toBe('You have adkit and notes.');
    // DESIGN "late answers come last": the model's newest content is the call's outcome.
    expect(JSON.stringify(secondRequest!.contents.at(-1))).toContain('notes');
    expect(pendingCredentialRequests((await store2.getSession({ appName: 'app', userId: 'alice', sessionId: 's1' }))!.events)).toEqual([]);

    // The secrets: the tokens the provider issued, the client secret, the code.
    const stored = (await service.get({ appName: 'app', userId: 'alice', name: await credentialKeyOf(apiAuth(idp)) })) as { oauth2: Record<string, string> };
    const secrets = [stored.oauth2.accessToken!, stored.oauth2.refreshToken!, stored.oauth2.idToken!, idp.clientSecret, code];
    expect(secrets.every((s) => typeof s === 'string' && s.length >= 10)).toBe(true);
    expect(api.seen).toEqual([`Bearer ${stored.oauth2.accessToken}`]);

    const dev = await serveDevUi({ runner: runner2, port: 0, userId: 'alice', logger });
    try {
      const pages = await Promise.all(
        ['/', '/api/apps', '/api/apps/app/users/alice/sessions', '/api/apps/app/users/alice/sessions/s1', '/api/apps/app/users/alice/sessions/s1/timeline'].map(async (p) => {
          const response = await fetch(new URL(p, dev.url));
          expect(response.status).toBe(200);
          return response.text();
        }),
      );
      const everything = {
        events: (await store2.getSession({ appName: 'app', userId: 'alice', sessionId: 's1' }))!.events,
        yielded: [...first, ...second],
        modelRequests: [...model1.requests, ...model2.requests],
        logs,
        spans: exporter.getFinishedSpans().map((span) => ({ name: span.name, attributes: span.attributes, events: span.events })),
        pages,
        database: readFileSync(path).toString('latin1'),
      };
      for (const [where, value] of Object.entries(everything)) {
        const text = typeof value === 'string' ? value : JSON.stringify(value);
        for (const secret of secrets) expect(text.includes(secret), `a secret leaked into ${where}`).toBe(false);
      }
      // The searches could fail: the spans and pages do hold the call and its result.
      expect(JSON.stringify(everything.spans)).toContain('list_repos');
      expect(pages[3]).toContain('notes');
    } finally {
      await dev.close();
      store2.close();
    }
  });
});
