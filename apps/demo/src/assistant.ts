import { fileURLToPath } from 'node:url';
import { loadArtifacts } from '@adkit/artifact-tools';
import { LlmAgent, type Tool, type Toolset } from '@adkit/flow';
import { loadMemory, preloadMemory } from '@adkit/memory-tools';
import { fileSystemSource, skillToolset } from '@adkit/skill-toolset';
import { DemoBrain, SummarizerBrain } from './demoBrain.js';
import { askForApproval, reimburse } from './expenseTools.js';
import { summarizerTool, webSearchTool } from './helperAgents.js';
import { planItinerary } from './itineraryTool.js';
import type { ModelChoice } from './modelFromEnv.js';
import { saveNote } from './notesTool.js';
import { tripDetailsAgent } from './tripDetailsAgent.js';
import type { SharedFolder } from './sharedFolder.js';
import { bookTrip, convertCurrency, getWeather } from './travelTools.js';
import { requestVacationDays } from './vacationTool.js';
import { weatherToolset } from './weatherMcpServer.js';

/** The skills folder shipped with the demo (`apps/demo/skills`), from `src/` or `dist/`. */
export const SKILLS_FOLDER = fileURLToPath(new URL('../skills', import.meta.url));

const INSTRUCTION = `You are the adkit demo assistant: a travel and office helper. Use the tools; call independent tools in parallel; answer in one to three sentences.
- Reimbursements: up to $100 call reimburse at once; over $100 call ask_for_approval first and call reimburse only after the manager approved.
- Vacation: call request_vacation_days; the manager answers.
- Bookings: book_trip asks the user to approve; just call it.
- Trips: to plan a trip, call trip_details; it asks the user where and for how long, then hands you both.
- Summaries: pass the whole text to the summarizer.
- Files: the shared folder is served by the filesystem tools; use paths relative to it ("welcome.txt", ".").
- Packing: load the packing-list skill and follow it.
- Notes: save_note adds to the user's notes; read them with load_artifacts.
- Memory: call load_memory for what the user told you in earlier sessions.
- Pets: the pet shop's REST API: list_pets shows who waits for a home; adopt_pet adopts one (the user approves first).
- Calendar: list_events shows the user's calendar (an MCP server behind OAuth); until the user has signed in, call authorize_calendar, which asks for their consent.`;

/** What the assistant is built from. */
export interface AssistantParts {
  choice: ModelChoice;
  /** The folder the filesystem MCP server serves. */
  folder: SharedFolder;
  /** The pet shop REST API as a toolset (its OpenAPI description). */
  petShop: Toolset;
  /** The calendar MCP server behind OAuth (`mcpToolset({url, auth})`). */
  calendar: Toolset;
}

/**
 * The demo's assistant, wired with every pack: function tools (plain, confirmed, long-running,
 * streaming), a summarizer agent as a tool, two MCP servers (in-memory and the filesystem server
 * over stdio, and the calendar over Streamable HTTP behind OAuth), a REST API through its OpenAPI
 * description (the pet shop), the skills folder,
 * memory, artifacts, and Google Search when a Gemini model is set.
 * Offline, it and its summarizer run on the demo brain.
 */
export function createAssistant({ choice, folder, petShop, calendar }: AssistantParts): LlmAgent {
  const tools: (Tool | Toolset)[] = [
    getWeather,
    convertCurrency,
    bookTrip,
    askForApproval,
    reimburse,
    requestVacationDays,
    planItinerary,
    saveNote,
    loadArtifacts,
    preloadMemory,
    loadMemory,
    summarizerTool(choice.model ?? new SummarizerBrain()),
    ...(choice.gemini ? [webSearchTool(choice.gemini)] : []),
  ];
  return new LlmAgent({
    name: 'assistant',
    description: 'The adkit demo assistant.',
    model: choice.model ?? new DemoBrain(),
    instruction: INSTRUCTION,
    tools,
    toolsets: [weatherToolset(), folder.toolset, petShop, calendar, skillToolset({ source: fileSystemSource(SKILLS_FOLDER) })],
    // A task agent: installed as the trip_details tool, it talks with the user until it has the details.
    subAgents: [tripDetailsAgent(choice.model)],
  });
}
