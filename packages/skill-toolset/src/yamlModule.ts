import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');
let loaded: Yaml | undefined;

/**
 * The `yaml` package, loaded on first use: most frontmatter takes the plain reader
 * (`readSimpleYaml`), so a process listing plain skills never pays for loading the parser.
 */
export function yamlModule(): Yaml {
  return (loaded ??= createRequire(import.meta.url)('yaml') as Yaml);
}
