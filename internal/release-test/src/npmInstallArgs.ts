/**
 * The package specs of every `npm install …` (or `npm i …`) command in a text, such as a README's
 * install section, in order and without options or comments: `npm install -D @adkit/flow typebox`
 * gives `[['@adkit/flow', 'typebox']]`.
 */
export function npmInstallArgs(text: string): string[][] {
  const commands: string[][] = [];
  for (const line of text.split('\n')) {
    const match = /^\s*(?:\$\s*)?npm\s+(?:install|i)\s+(.*)$/.exec(line);
    if (!match) continue;
    const words = match[1]!.replace(/(^|\s)#.*$/, '').trim().split(/\s+/);
    commands.push(words.filter((word) => word.length > 0 && !word.startsWith('-')));
  }
  return commands;
}
