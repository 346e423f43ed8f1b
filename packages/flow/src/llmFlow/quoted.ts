/** The longest name a warning or error event echoes in full. */
const MAX_QUOTED = 100;

/**
 * Text as messages quote it: whole up to `max` characters (100 by default, for names), else its
 * first `max` and `…`, so a hostile name or value (a megabyte of it) never rides along in every
 * later request and log line (#23 point 19). Every message that echoes what a model, a client or
 * a server sent goes through this one helper: tool, agent, artifact, skill and resource names,
 * argument keys, late answers' arguments.
 */
export function quoted(text: string, max = MAX_QUOTED): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
