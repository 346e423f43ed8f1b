// A separate Node process that saves versions of one artifact with FileSystemArtifactService,
// loaded from its TypeScript source (typescriptHooks.mjs; no build step).
// Usage: node artifactWriter.mjs <root> <writer> <count>. Prints "ready", waits for a line on
// stdin (so that several writers start at the same moment), saves <count> versions of
// "shared.txt" with the text "<writer>-<i>", then prints the versions it got as JSON.
import { once } from 'node:events';
import { register } from 'node:module';

register('./typescriptHooks.mjs', import.meta.url);
const [root, writer, count] = process.argv.slice(2);
const { FileSystemArtifactService } = await import('../../src/fileSystemArtifactService.ts');
const service = new FileSystemArtifactService({ root });
const key = { appName: 'shop', userId: 'ada', sessionId: 's1', filename: 'shared.txt' };

process.stdout.write('ready\n');
await once(process.stdin, 'data');
const versions = [];
for (let i = 0; i < Number(count); i++) versions.push(await service.saveArtifact({ ...key, artifact: { text: `${writer}-${i}` } }));
process.stdout.write(`${JSON.stringify(versions)}\n`);
process.exit(0);
