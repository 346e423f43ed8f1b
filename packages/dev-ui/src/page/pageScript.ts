import { SCRIPT_CALL_DELTAS } from './scriptCallDeltas.js';
import { SCRIPT_DOM } from './scriptDom.js';
import { SCRIPT_EVENTS } from './scriptEvents.js';
import { SCRIPT_MAIN } from './scriptMain.js';
import { SCRIPT_PANELS } from './scriptPanels.js';
import { SCRIPT_TASKS } from './scriptTasks.js';
import { SCRIPT_TIMELINE } from './scriptTimeline.js';

/** The page's script: plain browser JavaScript, no build step, all in one strict-mode closure. */
export const PAGE_SCRIPT = `(function () {\n'use strict';\n${[SCRIPT_DOM, SCRIPT_EVENTS, SCRIPT_CALL_DELTAS, SCRIPT_TASKS, SCRIPT_PANELS, SCRIPT_TIMELINE, SCRIPT_MAIN].join('\n')}\n})();\n`;
