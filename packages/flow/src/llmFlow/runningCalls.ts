import type { Event } from '../content/event.js';

/**
 * Which resumed calls are running right now. The "started" marker the flow saves before a resumed
 * call runs cannot tell, by itself, a call still running from one whose process died: both have
 * a marker and no answer. So while a call runs, its process also holds a lease on it:
 * - in this process, an entry in a process-wide registry (two runners in one process see it);
 * - on this machine, a lease file named for the marker event (unique, so unrelated sessions never
 *   collide) holding the process id: another process on the machine reads it and checks that the
 *   process is alive; a file left by a killed process (kill -9) names a dead process.
 * The lease ends (entry and file removed) when the call's answer has been saved, or its run ended
 * without one (cancelled, failed to save): then the marker with no answer means "interrupted".
 * The marker also names the machine, so a call started on another machine is not taken for
 * interrupted from here while it may still run: until its calls' time limit has passed (the
 * marker records when, if every call has one), or for good when a call has no limit (see
 * `callStatus`).
 */

const REGISTRY = Symbol.for('adkit.runningCalls');
type Registry = Map<string, number>;

/** The registry, shared by every copy of this module in the process. */
function registry(): Registry {
  const holder = globalThis as { [REGISTRY]?: Registry };
  return (holder[REGISTRY] ??= new Map());
}

interface NodeApi {
  crypto: typeof import('node:crypto');
  fs: typeof import('node:fs');
  os: typeof import('node:os');
  path: typeof import('node:path');
  pid: number;
  kill: (pid: number, signal: number) => void;
}

let nodeApi: NodeApi | null | undefined;

/** Node's modules when the flow runs on Node (without importing them: the core runs elsewhere too). */
function node(): NodeApi | undefined {
  if (nodeApi !== undefined) return nodeApi ?? undefined;
  const proc = (globalThis as { process?: NodeJS.Process }).process;
  const get = proc?.getBuiltinModule;
  nodeApi =
    typeof get === 'function'
      ? {
          crypto: get('node:crypto') as typeof import('node:crypto'),
          fs: get('node:fs') as typeof import('node:fs'),
          os: get('node:os') as typeof import('node:os'),
          path: get('node:path') as typeof import('node:path'),
          pid: proc!.pid,
          kill: (pid, signal) => proc!.kill(pid, signal),
        }
      : null;
  return nodeApi ?? undefined;
}

/** This machine's name, as the started marker records it; undefined off Node. */
export function hostName(): string | undefined {
  try {
    return node()?.os.hostname();
  } catch {
    return undefined;
  }
}

const key = (markerId: string, callId: string) => `${markerId}\u0000${callId}`;

/** A lease file's name: a hash of the marker id and call id (any characters, any length, no path tricks). */
function leaseFile(api: NodeApi, markerId: string, callId: string): string {
  const name = api.crypto.createHash('sha256').update(key(markerId, callId)).digest('hex');
  return api.path.join(api.os.tmpdir(), 'adkit-running-calls', `${name}.lease`);
}

/** A lease on resumed calls, held while they run; `release()` ends it (idempotent). */
export interface RunningCallsLease {
  release(): void;
}

/** Takes the lease on these calls, which start under the marker event `markerId`. */
export function leaseRunningCalls(markerId: string, callIds: readonly string[]): RunningCallsLease {
  const calls = registry();
  const files: string[] = [];
  const api = node();
  for (const callId of callIds) {
    calls.set(key(markerId, callId), (calls.get(key(markerId, callId)) ?? 0) + 1);
    if (!api) continue;
    try {
      const file = leaseFile(api, markerId, callId);
      api.fs.mkdirSync(api.path.dirname(file), { recursive: true, mode: 0o700 });
      api.fs.writeFileSync(file, JSON.stringify({ pid: api.pid }), { mode: 0o600 });
      files.push(file);
    } catch {
      // No writable temp folder: other processes cannot see the lease; this process still can.
    }
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      for (const callId of callIds) {
        const count = (calls.get(key(markerId, callId)) ?? 1) - 1;
        if (count > 0) calls.set(key(markerId, callId), count);
        else calls.delete(key(markerId, callId));
      }
      for (const file of files)
        try {
          api?.fs.rmSync(file, { force: true });
        } catch {
          // A lease file left behind names this process; once it exits, it reads as ended.
        }
    },
  };
}

/**
 * Whether a call whose marker has no answer is still running: `running` (in this process, or in
 * a live process on this machine), `elsewhere` (started on another machine: whether it still runs
 * cannot be seen from here), or `ended` (its process stopped, or its run ended without an answer).
 */
export function callStatus(marker: Event, callId: string): 'running' | 'elsewhere' | 'ended' {
  if (registry().has(key(marker.id, callId))) return 'running';
  const startedOn = marker.customMetadata?.adkitStartedOn;
  const here = hostName();
  if (typeof startedOn === 'string' && here !== undefined && startedOn !== here) {
    // Past its calls' time limit no process still runs them (the flow stops a call at its limit).
    const until = marker.customMetadata?.adkitRunsUntil;
    return typeof until === 'number' && Date.now() > until ? 'ended' : 'elsewhere';
  }
  const api = node();
  if (!api) return 'ended';
  const file = leaseFile(api, marker.id, callId);
  let pid: unknown;
  try {
    pid = (JSON.parse(api.fs.readFileSync(file, 'utf8')) as { pid?: unknown }).pid;
  } catch {
    return 'ended';
  }
  // This process holds no lease on it (checked above): a file with our pid is a dead process's.
  if (typeof pid === 'number' && Number.isInteger(pid) && pid > 0 && pid !== api.pid)
    try {
      api.kill(pid, 0);
      return 'running';
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EPERM') return 'running';
    }
  try {
    api.fs.rmSync(file, { force: true }); // left by a process that is gone
  } catch {
    // Harmless: it reads as ended next time too.
  }
  return 'ended';
}
