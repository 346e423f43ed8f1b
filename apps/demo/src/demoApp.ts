import { createConfirmationReply, type ConfirmationDecision, type PendingConfirmation } from '@adkit/confirmation';
import { Runner, createUserContent, type Content, type Logger, type Plugin } from '@adkit/flow';
import { createAssistant } from './assistant.js';
import { modelFromEnv, type ModelChoice } from './modelFromEnv.js';
import type { DemoOutput } from './output.js';
import { pendingWork, type PendingLongRunningCall, type PendingWork } from './pendingWork.js';
import { startPetShop, type PetShop } from './petShop.js';
import { demoServices, type DemoServices } from './services.js';
import { sharedFolder, type SharedFolder } from './sharedFolder.js';
import type { Style } from './style.js';
import { tracePlugin } from './tracing.js';
import { Transcript } from './transcript.js';

/** The app name sessions are stored under. */
export const APP_NAME = 'adkit-demo';

/** What a demo app needs. */
export interface DemoAppOptions {
  env: Readonly<Record<string, string | undefined>>;
  output: DemoOutput;
  style: Style;
  /** `--db`: a SQLite file or a `postgres://` URL; in memory when absent. */
  db?: string;
  /** `--trace`: print each OpenTelemetry span as it ends. */
  trace?: boolean;
  /** `--web`: record what the dev UI's timeline and request view show. */
  web?: boolean;
  /** Where the runner's warnings go (stderr by default). */
  logger?: Logger;
}

/** Whose conversation it is: one user, one session. */
export interface Conversation {
  userId: string;
  sessionId: string;
}

/**
 * The assistant, its runner and services, and the transcript they print: what both the scripted
 * demo and the interactive chat drive. Close it to stop the MCP server process and the store.
 */
export class DemoApp {
  readonly choice: ModelChoice;
  readonly runner: Runner;
  private readonly services: DemoServices;
  private readonly folder: SharedFolder;
  private readonly petShop: PetShop;
  private readonly transcript: Transcript;
  private readonly output: DemoOutput;
  private readonly style: Style;

  /** Builds the app: the model from the environment, the services for `--db`, the assistant. */
  static async open(options: DemoAppOptions): Promise<DemoApp> {
    const choice = await modelFromEnv(options.env);
    const services = await demoServices(options.db);
    const plugins: Plugin[] = [
      ...(options.web ? [(await import('@adkit/dev-ui')).devUiPlugin()] : []),
      ...(options.trace ? [await tracePlugin((line) => options.output.line(options.style.dim(line)))] : []),
    ];
    return new DemoApp(options, choice, services, plugins, await startPetShop());
  }

  private constructor(options: DemoAppOptions, choice: ModelChoice, services: DemoServices, plugins: Plugin[], petShop: PetShop) {
    this.output = options.output;
    this.style = options.style;
    this.choice = choice;
    this.services = services;
    this.folder = sharedFolder();
    this.petShop = petShop;
    this.transcript = new Transcript(options.style);
    this.runner = new Runner({
      appName: APP_NAME,
      agent: createAssistant({ choice, folder: this.folder, petShop: petShop.toolset }),
      sessionService: services.sessionService,
      artifactService: services.artifactService,
      memoryService: services.memoryService,
      addSessionsToMemory: true, // what the user said is remembered for their next sessions
      autoCreateSession: true,
      plugins,
      ...(options.logger ? { logger: options.logger } : {}),
    });
  }

  /** What the header says: the model (offline clearly marked), where sessions live, the tools. */
  header(): string[] {
    const { style } = this;
    return [
      style.heading('adkit demo'),
      `model: ${this.choice.model ? this.choice.label : style.waiting(this.choice.label)}`,
      `sessions: ${this.services.label}`,
      'tools: get_weather, convert_currency, book_trip (asks you first), ask_for_approval (long-running) + reimburse, ' +
        'request_vacation_days (asks the manager), plan_itinerary (streams), summarizer (an agent as a tool), save_note + load_artifacts, ' +
        'preload_memory + load_memory, get_forecast (MCP server in memory), list_directory/read_text_file/write_file ' +
        '(MCP filesystem server over stdio, on a temp folder), list_pets + adopt_pet (asks you first; a REST API on 127.0.0.1 through its OpenAPI description), ' +
        'list_skills/load_skill/load_skill_resource (apps/demo/skills)',
      this.choice.gemini
        ? 'Gemini-native: web_search (Google Search, on Gemini, as an agent tool)'
        : 'Gemini-native: off (set GEMINI_API_KEY to add web_search with Google Search)',
    ];
  }

  /** Runs one turn and prints its events. */
  async turn(conversation: Conversation, newMessage: Content): Promise<void> {
    this.output.busy(true);
    try {
      for await (const event of this.runner.runAsync({ ...conversation, newMessage }))
        for (const line of this.transcript.lines(event))
          if (line.kind === 'line') this.output.line(line.text);
          else this.output.progress(line.text);
    } finally {
      this.output.busy(false);
    }
  }

  /** What the conversation's session waits for. */
  async pending(conversation: Conversation): Promise<PendingWork> {
    const session = await this.runner.sessionService.getSession({ appName: APP_NAME, ...conversation });
    return pendingWork(session);
  }

  /** Answers a confirmation request and runs the turn it resumes. */
  confirm(conversation: Conversation, request: PendingConfirmation, decision: ConfirmationDecision): Promise<void> {
    return this.turn(conversation, createConfirmationReply(request, decision));
  }

  /** Sends a long-running call's real answer and runs the turn it resumes. */
  answer(conversation: Conversation, pending: PendingLongRunningCall, response: Record<string, unknown>): Promise<void> {
    const { id, name } = pending.call;
    return this.turn(conversation, createUserContent([{ functionResponse: { id, name, response } }]));
  }

  /** Stops the MCP servers and the pet shop, closes the session store and removes the temp folder. */
  async close(): Promise<void> {
    try {
      await this.runner.close();
      await this.services.close();
    } finally {
      await this.petShop.close();
      this.folder.remove();
    }
  }
}
