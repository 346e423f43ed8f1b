import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createEvent, isAdkitError } from '@adkit/flow';
import { SqliteSessionService } from '../src/sqliteSessionService.js';
import { tempDir } from './support/tempDir.js';

// Durable format (STYLE rule 11): databases written by a released version must keep opening.
// Bad input tried: an event row in a newer format, in an unknown format, and with broken JSON.

/** A database file restored from a fixture dump, removed when the test ends. */
function restore(fixture: string): string {
  const temp = tempDir();
  const path = temp.file('restored.db');
  const db = new Database(path);
  db.exec(readFileSync(new URL(`fixtures/${fixture}`, import.meta.url), 'utf8'));
  db.close();
  onTestFinished(() => temp.remove());
  return path;
}

function openService(path: string): SqliteSessionService {
  const service = new SqliteSessionService({ path });
  onTestFinished(() => service.close());
  return service;
}

const trip1 = { appName: 'travel', userId: 'ada', sessionId: 'trip-1' };

describe('schema v1 / event format v1 fixture', () => {
  it('reads sessions, state and events exactly as v1 wrote them', async () => {
    const service = openService(restore('schema-v1.sql'));
    const session = await service.getSession(trip1);
    expect(session).toMatchObject({
      id: 'trip-1',
      appName: 'travel',
      userId: 'ada',
      lastUpdateTime: 1_700_000_060_000,
      state: {
        destination: 'Rome',
        status: 'approved',
        'app:currency': 'EUR',
        'app:season': 'summer',
        'user:home': 'Zürich',
        'user:lastTrip': 'Rome',
      },
    });
    expect(Object.keys(session!.state)).toHaveLength(6);
    expect(session!.events.map((e) => e.id)).toEqual(['e1', 'e2', 'e3', 'e4']);
    expect(session!.events[2]).toStrictEqual({
      id: 'e3',
      invocationId: 'inv-1',
      author: 'assistant',
      branch: 'root.assistant',
      timestamp: 1_700_000_000_002,
      content: {
        role: 'model',
        parts: [
          {
            functionCall: {
              id: 'confirm-1',
              name: 'adk_request_confirmation',
              args: {
                originalFunctionCall: { id: 'call-1', name: 'request_vacation', args: { days: 3 } },
                toolConfirmation: { hint: 'Approve 3 days?', confirmed: false, payload: { days_approved: 0 } },
              },
            },
          },
        ],
      },
      longRunningToolIds: ['confirm-1'],
      actions: {
        stateDelta: { status: 'pending', 'user:lastTrip': 'Rome' },
        artifactDelta: { 'itinerary.pdf': 0 },
        skipSummarization: true,
        requestedToolConfirmations: { 'call-1': { hint: 'Approve 3 days?', confirmed: false, payload: { days_approved: 0 } } },
      },
    });
    expect(session!.events[3]).toMatchObject({
      turnComplete: true,
      errorCode: 'MALFORMED_FUNCTION_CALL',
      errorMessage: 'retrying',
      groundingMetadata: { webSearchQueries: ['rome weather'] },
      actions: { escalate: true, transferToAgent: 'booker' },
    });
    expect(session!.events[3]!.content!.parts!.map((p) => Object.keys(p)[0])).toEqual([
      'inlineData',
      'fileData',
      'executableCode',
      'codeExecutionResult',
      'functionResponse',
    ]);
    expect(session!.events[1]!.usageMetadata).toEqual({ promptTokenCount: 12, candidatesTokenCount: 7, totalTokenCount: 19 });
  });

  it('lists the sessions of every user and filters events as today', async () => {
    const service = openService(restore('schema-v1.sql'));
    const listed = await service.listSessions({ appName: 'travel' });
    expect(listed.map((s) => [s.userId, s.id, s.events.length])).toEqual([
      ['ada', 'trip-1', 0],
      ['bob', 'trip-2', 0],
    ]);
    expect(listed[1]!.state).toEqual({ 'app:currency': 'EUR', 'app:season': 'summer' });
    const recent = await service.getSession({ ...trip1, numRecentEvents: 2, afterTimestamp: 1_700_000_000_001 });
    expect(recent!.events.map((e) => e.id)).toEqual(['e3', 'e4']);
  });

  it('keeps working: new events go after the old ones, and state merges', async () => {
    const service = openService(restore('schema-v1.sql'));
    const session = (await service.getSession(trip1))!;
    await service.appendEvent(session, createEvent({ id: 'e6', invocationId: 'inv-4', author: 'user', actions: { stateDelta: { 'user:home': 'Bern' } } }));
    const again = (await service.getSession(trip1))!;
    expect(again.events.map((e) => e.id)).toEqual(['e1', 'e2', 'e3', 'e4', 'e6']);
    expect(again.state['user:home']).toBe('Bern');
  });
});

describe('schema v2 / event format v1 fixture', () => {
  it('reads sessions with their versions, and keeps counting versions from where v2 left off', async () => {
    const service = openService(restore('schema-v2.sql'));
    const ada = (await service.getSession(trip1))!;
    expect(ada).toMatchObject({ version: 6, lastUpdateTime: 1_700_000_200_000, state: { status: 'done', 'user:home': 'Bern', 'app:season': 'winter' } });
    expect(ada.events.map((e) => e.id)).toEqual(['e1', 'e2', 'e3', 'e4', 'e6']);
    const cy = (await service.getSession({ appName: 'travel', userId: 'cy', sessionId: 'trip-3' }))!;
    expect(cy).toMatchObject({ version: 8, state: { destination: 'Oslo', 'app:currency': 'EUR', 'app:season': 'winter' } });
    expect(cy.events.map((e) => e.content?.parts?.[0]?.text)).toEqual(['Hej']);

    const stale = (await service.getSession(trip1))!;
    await service.appendEvent(ada, createEvent({ id: 'e8', invocationId: 'inv-6', author: 'user' }));
    expect(ada.version).toBe(9);
    await expect(service.appendEvent(stale, createEvent({ id: 'e9', invocationId: 'inv-6', author: 'user' }))).rejects.toMatchObject({
      code: 'SESSION_CONFLICT',
    });
    expect((await service.getSession(trip1))!.events.map((e) => e.id)).toEqual(['e1', 'e2', 'e3', 'e4', 'e6', 'e8']);
  });
});

describe('event rows the reader must refuse', () => {
  const cases: [string, string, string][] = [
    [
      'a newer event format',
      'UPDATE adkit_events SET format = 2 WHERE id = ?',
      'Event "e2" (row 2) of session "trip-1" was written in event format 2 by a newer @adkit/session-sqlite; this release reads formats up to 1. Upgrade @adkit/session-sqlite.',
    ],
    [
      'an unknown event format',
      'UPDATE adkit_events SET format = 0 WHERE id = ?',
      'Event "e2" (row 2) of session "trip-1" has unknown event format 0; the database is damaged or was not written by @adkit/session-sqlite.',
    ],
    [
      'broken JSON',
      "UPDATE adkit_events SET data = substr(data, 1, 20) WHERE id = ?",
      'Event "e2" (row 2) of session "trip-1" holds invalid JSON; the database is damaged.',
    ],
  ];

  it.each(cases)('getSession refuses %s with a clear error, and other sessions still read', async (_, sql, message) => {
    const path = restore('schema-v1.sql');
    const db = new Database(path);
    db.prepare(sql).run('e2');
    db.close();
    const service = openService(path);

    const error = await service.getSession(trip1).then(() => undefined, (thrown: unknown) => thrown);
    expect(isAdkitError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'SESSION_ERROR', message });
    expect((await service.getSession({ ...trip1, numRecentEvents: 2 }))!.events.map((e) => e.id)).toEqual(['e3', 'e4']);
    expect((await service.getSession({ appName: 'travel', userId: 'bob', sessionId: 'trip-2' }))!.events).toHaveLength(1);
  });
});
