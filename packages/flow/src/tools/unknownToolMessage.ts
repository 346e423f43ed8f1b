import { quoted } from '../llmFlow/quoted.js';

/** The error the model sees for a call to a tool the agent does not have (FL-11). */
export function unknownToolMessage(name: string, available: readonly string[]): string {
  return (
    `tool '${quoted(name)}' not found.\nAvailable tools: ${available.join(', ')}\n\n` +
    'Possible causes:\n' +
    '  1. The name was made up: the model called a tool that does not exist.\n' +
    '  2. The tool is not registered: it is missing from the agent\'s tools or toolsets.\n' +
    '  3. A name mismatch: the call has a typo.\n\n' +
    'Suggested fixes:\n' +
    '  - Call one of the available tools listed above, with its exact name.\n' +
    '  - If no available tool fits, answer without calling a tool.'
  );
}

/** The error the model sees for a registered tool that cannot be called (FL-11 step 4). */
export function notCallableToolMessage(name: string): string {
  return `tool '${quoted(name)}' cannot be called: it has neither run() nor runStream(). It only shapes the request; answer without calling it.`;
}
