import { InMemoryCredentialService, createCredentialReply, credentialManager, type PendingCredentialRequest } from '@adkit/auth';
import { createConfirmationReply, type ConfirmationDecision, type PendingConfirmation } from '@adkit/confirmation';
import { Runner, createUserContent, type Content, type Logger, type Plugin } from '@adkit/flow';
import { createAssistant } from './assistant.js';
import { startCalendarService, type CalendarService } from './calendarMcpServer.js';
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
  /** The calendar MCP server behind OAuth, and its provider (both on 127.0.0.1). */
  readonly calendar: CalendarService;
  /** Where each user's tokens are kept: in this process, never in a session or an event. */
  readonly credentialService = new InMemoryCredentialService();
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
    const [petShop, calendar] = await Promise.all([startPetShop(), startCalendarService()]);
    return new DemoApp(options, choice, services, plugins, petShop, calendar);
  }

  private constructor(options: DemoAppOptions, choice: ModelChoice, services: DemoServices, plugins: Plugin[], petShop: PetShop, calendar: CalendarService) {
    this.output = options.output;
    this.style = options.style;
    this.choice = choice;
    this.services = services;
    this.folder = sharedFolder();
    this.petShop = petShop;
    this.calendar = calendar;
    this.transcript = new Transcript(options.style);
    this.runner = new Runner({
      appName: APP_NAME,
      agent: createAssistant({ choice, folder: this.folder, petShop: petShop.toolset, calendar: calendar.toolset }),
      // The credential protocol (@adkit/auth): PKCE, the code exchange and refreshes; http: is
      // allowed because the demo's provider is on 127.0.0.1.
      credentials: credentialManager({ credentialService: this.credentialService, allowInsecureRequests: true }),
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
        'list_skills/load_skill/load_skill_resource (apps/demo/skills), ' +
        'list_events (asks you to sign in first; an MCP server on 127.0.0.1 behind OAuth, oidc-provider as the provider)',
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

  /** Sends the user back from the provider (`authResponseUri`: where it redirected them) and runs the turn it resumes. */
  consent(conversation: Conversation, request: PendingCredentialRequest, authResponseUri: string): Promise<void> {
    return this.turn(conversation, createCredentialReply(request, { authResponseUri }));
  }

  /**
   * What the user's browser would do for the demo: signs in on the local provider as the
   * conversation's user and consents; returns the URL the provider sent the browser back to.
   */
  async consentInBrowser(conversation: Conversation, request: PendingCredentialRequest): Promise<string> {
    if (!request.authUri || !request.redirectUri) throw new TypeError(`the consent for ${request.originalCall.name} has no sign-in link`);
    // Only the demo's own provider: this signs in for the user, so it never follows another link.
    if (new URL(request.authUri).origin !== new URL(this.calendar.provider.issuer).origin)
      throw new TypeError(`the consent for ${request.originalCall.name} is not on the demo's provider; open its link yourself`);
    return this.calendar.provider.consentAs(conversation.userId, request.authUri, request.redirectUri);
  }

  /** Stops the MCP servers, the pet shop and the OAuth provider, closes the session store and removes the temp folder. */
  async close(): Promise<void> {
    try {
      await this.runner.close();
      await this.services.close();
    } finally {
      await Promise.all([this.petShop.close(), this.calendar.close()]);
      this.folder.remove();
    }
  }
}
