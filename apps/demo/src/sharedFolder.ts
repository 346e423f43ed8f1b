import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mcpToolset, type McpToolset } from '@adkit/mcp-toolset';

/** A temporary folder served by the real MCP filesystem server. */
export interface SharedFolder {
  /** The folder, an absolute path. */
  readonly path: string;
  /** `list_directory`, `read_text_file` and `write_file` of the server, started on first use. */
  readonly toolset: McpToolset;
  /** Deletes the folder (close the toolset first). */
  remove(): void;
}

/** The files the demo puts in the folder. */
export const SHARED_FILES: Readonly<Record<string, string>> = {
  'welcome.txt': 'Welcome to the adkit demo. This folder is served by @modelcontextprotocol/server-filesystem over stdio.\n',
  'trip-ideas.txt': 'Lisbon in spring. Tokyo in autumn. Oslo for the northern lights.\n',
};

/**
 * Makes a temporary folder with a few files and a toolset for `@modelcontextprotocol/server-filesystem`
 * on it: a child process over stdio, started on first use and stopped by `runner.close()`. The
 * server runs in the folder, so paths relative to it work (`welcome.txt`, `.`).
 */
export function sharedFolder(): SharedFolder {
  const path = realpathSync(mkdtempSync(join(tmpdir(), 'adkit-demo-files-')));
  for (const [name, text] of Object.entries(SHARED_FILES)) writeFileSync(join(path, name), text);
  const server = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
  const toolset = mcpToolset(
    { stdio: { command: process.execPath, args: [server, path], cwd: path, stderr: 'ignore' } },
    { name: 'shared_folder', toolFilter: ['list_directory', 'read_text_file', 'write_file'] },
  );
  return { path, toolset, remove: () => rmSync(path, { recursive: true, force: true }) };
}
