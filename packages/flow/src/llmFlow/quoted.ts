/** The longest name a warning or error event echoes in full. */
const MAX_QUOTED = 100;

/**
 * A name as messages quote it: whole up to 100 characters, else its first 100 and `…`, so a
 * hostile name (a megabyte of it) never rides along in every later request and log line.
 */
export function quoted(name: string): string {
  return name.length <= MAX_QUOTED ? name : `${name.slice(0, MAX_QUOTED)}…`;
}
