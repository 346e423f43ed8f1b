// The real MCP servers from npm (devDependencies), started the way shared/fixtures/mcp-servers.md
// describes: over stdio, or server-everything over HTTP on 127.0.0.1 only.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { McpStdioServer } from '../../src/index.js';

const require = createRequire(import.meta.url);
export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
export const MEMORY = require.resolve('@modelcontextprotocol/server-memory/dist/index.js');
const LOOPBACK = pathToFileURL(fileURLToPath(new URL('../fixtures/loopback.mjs', import.meta.url))).href;

/** A node script as a stdio server, its stderr dropped. */
export function nodeServer(script: string, args: string[] = [], env?: Record<string, string>): McpStdioServer {
  return { stdio: { command: process.execPath, args: [script, ...args], stderr: 'ignore', ...(env ? { env } : {}) } };
}

/** Whether a process with this id still exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Ids of this process's children whose command line mentions `script` (from /proc). */
export function childProcesses(script: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== process.pid) continue;
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue; // exited, not yet reaped
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(script)) found.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RunningServer {
  url: string;
  child: ChildProcess;
  close(): Promise<void>;
}

/**
 * server-everything in `streamableHttp` (endpoint `/mcp`) or legacy `sse` mode (endpoint `/sse`),
 * kept on 127.0.0.1 by the loopback preload; resolves once it listens.
 */
export async function startEverythingHttp(mode: 'streamableHttp' | 'sse'): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', LOOPBACK, EVERYTHING, mode], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything ${mode} did not start: ${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on port|running on port/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything ${mode} exited with ${code}: ${output}`));
    });
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`,
    child,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
