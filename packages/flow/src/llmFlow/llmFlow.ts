import { TRANSFER_TO_AGENT, transferSetup, type TransferSetup } from '../agents/agentTransfer.js';
import { buildRequest } from './buildRequest.js';
import { callModel } from './callModel.js';
import type { ToolCallbacks } from './callTool.js';
import { asksForConfirmation, confirmationEvent } from './confirmationEvent.js';
import { errorMessage } from '../errors.js';
import { getFunctionCalls, isFinalResponse, createEvent, type Event } from '../content/event.js';
import { createEventActions } from '../content/eventActions.js';
import { executeFunctionCalls } from './executeFunctionCalls.js';
import { FlowContext } from '../context/flowContext.js';
import { newId } from '../content/ids.js';
import type { InvocationContext } from '../context/invocationContext.js';
import type { LlmAgent } from '../agents/llmAgent.js';
import { createLlmRequest } from '../model/llmRequest.js';
import { modelEvent } from './modelEvent.js';
import { quoted } from './quoted.js';
import { pluginCallbacks, type Plugin } from '../runner/plugin.js';
import { ToolResolver } from './resolveTools.js';
import { resumeConfirmedCalls } from './resumeConfirmedCalls.js';
import { resumeCredentialCalls } from './resumeCredentialCalls.js';
import { asksForCredentials, credentialRequestEvents } from './credentialRequestEvent.js';
import { resumePausedCalls } from './resumePausedCalls.js';
import { mayResume } from './mayResume.js';
import { saveOutput, structuredAnswer, structuredAnswerOf, type OutputCheck } from './structuredOutput.js';
import { SET_MODEL_RESPONSE } from './setModelResponseTool.js';
import { reportProblem, type StepProblem } from './stepProblem.js';
import { runToolSelectors, selectStepTools } from './toolSelection.js';
import { hasTaskTools, runOpenTasks } from '../agents/taskDelegation.js';

/**
 * Runs an LLM agent: steps (one model call plus its tools) repeat until the last event is a
 * final response (FL-6). Failures become error events; a cancelled run just stops.
 *
 * A step runs in this generator, not in one of its own: every event passes one layer fewer (#24).
 * `break step` ends a step as a return from it would; `ending` keeps what its events decide.
 */
export async function* runLlmFlow(agent: LlmAgent, context: InvocationContext): AsyncGenerator<Event, void, undefined> {
  const handoff = transferSetup(agent);
  const resolver = new ToolResolver(agent, reservedNames(agent, handoff));
  const callbacks = toolCallbacks(agent, context.plugins);
  const selectors = runToolSelectors(agent, context.plugins);
  let outputCheck: OutputCheck | undefined;
  try {
    outputCheck = agent.compiledOutputSchema ? await agent.compiledOutputSchema.compile() : undefined;
  } catch (error) {
    // Construction checks the schema's syntax; a schema TypeBox still refuses ends the run clearly.
    yield errorEvent(context, 'INVALID_OUTPUT_SCHEMA', `Agent "${agent.name}": outputSchema does not compile: ${errorMessage(error)}`);
    return;
  }
  const ending = new StepEnding();
  while (true) {
    // The agent's open task calls run before its model is called again (#27); one that waits for
    // the user ends the turn.
    if ((hasTaskTools(agent) && (yield* runOpenTasks(agent, context)) === 'waiting') || context.aborted || context.endInvocation) return;
    ending.reset();
    step: {
      const model = agent.canonicalModel;
      if (!model) {
        yield ending.note(errorEvent(context, 'NO_MODEL', `Agent "${agent.name}" has no model; pass \`model\` to it or to an ancestor LlmAgent.`));
        break step;
      }
      const request = createLlmRequest({ model: model.model });
      // Request processors write here; the step's first complete model event carries it (so it is saved).
      let actions = createEventActions();
      const problems: StepProblem[] = [];
      try {
        // Consents complete before the tools are listed (a toolset may list with the new credential).
        // A resumed call that pauses again ends the step like a first call's pause: the model is not
        // called with the call pending; the client's next answer resumes it again.
        // Skipped when no reply waits: a plain message resumes nothing.
        const resuming = mayResume(context.session.events, context.invocationId);
        let paused =
          resuming &&
          (yield* noted(context, ending, resumeCredentialCalls(context, async () => (await resolver.resolve(() => new FlowContext(context))).tools, callbacks, agent)));
        if (context.aborted || context.endInvocation) break step;
        const resolving = resolver.resolve(() => new FlowContext(context));
        const resolved = resolving instanceof Promise ? await resolving : resolving;
        if (context.aborted) break step;
        for (const problem of resolver.unreported(resolved.problems)) {
          yield ending.note(reportProblem(context, problem));
          if (context.aborted) return;
        }
        if (resuming) {
          paused = (yield* noted(context, ending, resumeConfirmedCalls(context, resolved.tools, callbacks, agent))) || paused;
          if (context.aborted || context.endInvocation) break step;
          paused = (yield* noted(context, ending, resumePausedCalls(context, resolved.tools, callbacks, agent))) || paused;
        }
        if (context.aborted || context.endInvocation || paused) break step;
        const selected = selectStepTools(resolved, selectors, context);
        const building = buildRequest(agent, context, request, selected instanceof Promise ? await selected : selected, handoff, actions, problems);
        if (building) await building;
      } catch (error) {
        if (!context.aborted) yield ending.note(errorEvent(context, 'REQUEST_ERROR', errorMessage(error)));
        break step;
      }
      if (context.aborted) break step;
      // One bad part never takes the agent down: what was left out is said, the model is still called.
      for (const problem of resolver.unreported(problems)) {
        yield ending.note(reportProblem(context, problem));
        if (context.aborted) return;
      }

      // The id of the model event being formed: its partial events share it with the complete one.
      // Made when the first event of it comes, not ahead (a step's last response leaves none unused).
      let eventId: string | undefined;
      try {
        const modelCall = callModel(agent, context, model, request, actions);
        for await (const response of modelCall) {
          if (!response.content && !response.errorCode && !response.interrupted && !(response.partial && response.toolCallDelta)) continue;
          const event = modelEvent(context, request, response, (eventId ??= newId()), response.partial ? undefined : actions);
          if (!response.partial) {
            actions = createEventActions();
            eventId = undefined;
            if (agent.outputKey) await saveOutput(agent, event, outputCheck, context.signal);
          }
          if (context.aborted) return;
          yield ending.note(event);
          if (response.partial) continue;
          const calls = getFunctionCalls(event);
          if (calls.length === 0) continue;

          let responses: Event | undefined;
          const executed = executeFunctionCalls({
            invocation: context,
            calls,
            tools: request.tools,
            callbacks,
            maxConcurrency: agent.maxToolConcurrency,
            toolTimeoutMs: agent.toolTimeoutMs,
            refusals: modelCall.refusals,
          });
          // What withCredentialRequests does, without its layer for the events that ask for nothing.
          for await (const outcome of executed)
            for (const produced of asksForCredentials(outcome) ? await credentialRequestEvents(context, outcome) : [outcome]) {
              if (!produced.partial && !responses) responses = produced;
              if (context.aborted) return;
              yield ending.note(produced);
            }
          if (!responses || context.aborted) break step;
          // Each only when there is something for it: no promise for the common step (#24).
          if (asksForConfirmation(responses)) {
            const confirmation = await confirmationEvent(context, event, responses);
            if (confirmation) {
              if (context.aborted) return;
              yield ending.note(confirmation);
            }
          }
          const answer = structuredAnswerOf(responses);
          if (answer) {
            const structured = await structuredAnswer(context, agent, answer, outputCheck);
            if (context.aborted) return;
            yield ending.note(structured);
          }
          if (responses.actions.transferToAgent) yield* noted(context, ending, transfer(context, handoff, responses.actions.transferToAgent));
          break step;
        }
      } catch (error) {
        if (!context.aborted) yield ending.note(errorEvent(context, 'FLOW_ERROR', errorMessage(error)));
      }
    }
    if (context.aborted || context.endInvocation || !ending.last || ending.lastWasPartial) return;
    if (ending.final && !isThoughtOnly(ending.last)) {
      // A task called beside a call that ends the turn (a long-running one) still runs now (#27).
      if (hasTaskTools(agent)) yield* runOpenTasks(agent, context);
      return;
    }
  }
}

/** What a step's events decide: whether its last complete event ends the turn (FL-6). */
class StepEnding {
  last: Event | undefined;
  lastWasPartial = false;
  final = false;

  reset(): void {
    this.last = undefined;
    this.lastWasPartial = false;
    this.final = false;
  }

  /** Takes account of the event, about to be yielded; returns it. */
  note(event: Event): Event {
    this.lastWasPartial = event.partial === true;
    if (event.partial) return event;
    // An event that only carries actions (state of a tool that answers later) does not decide.
    // A call paused by a resumable tool marks its event long-running: the turn ends there.
    this.final = isActionsOnly(event)
      ? this.final || event.actions.skipSummarization === true || (event.longRunningToolIds?.length ?? 0) > 0
      : isFinalResponse(event);
    this.last = event;
    return event;
  }
}

/** A step's sub-stream (resumed calls, a transfer), each event taken account of; stops when the run is cancelled. */
async function* noted<T>(
  context: InvocationContext,
  ending: StepEnding,
  events: AsyncGenerator<Event, T, undefined>,
): AsyncGenerator<Event, T | undefined, undefined> {
  let finished = false;
  try {
    while (true) {
      const next = await events.next();
      if (next.done) {
        finished = true;
        return next.value;
      }
      if (context.aborted) return undefined;
      yield ending.note(next.value);
    }
  } finally {
    // Left early (the run cancelled, or the consumer stopped): the sub-stream is closed too.
    if (!finished) await events.return(undefined as T);
  }
}

/** The names the flow declares itself this run; a tool of the same name is left out. */
function reservedNames(agent: LlmAgent, handoff: TransferSetup | undefined): string[] {
  const names: string[] = [];
  if (handoff) names.push(TRANSFER_TO_AGENT);
  if (agent.compiledOutputSchema) names.push(SET_MODEL_RESPONSE);
  return names;
}

function isActionsOnly(event: Event): boolean {
  return !event.content && !event.errorCode;
}

function isThoughtOnly(event: Event): boolean {
  const parts = event.content?.parts ?? [];
  return parts.length > 0 && parts.every((part) => part.thought === true);
}

function toolCallbacks(agent: LlmAgent, plugins: readonly Plugin[]): ToolCallbacks {
  return {
    before: { plugins: pluginCallbacks(plugins, 'beforeToolCallback'), agent: agent.beforeToolCallbacks },
    after: { plugins: pluginCallbacks(plugins, 'afterToolCallback'), agent: agent.afterToolCallbacks },
    onError: { plugins: pluginCallbacks(plugins, 'onToolErrorCallback'), agent: agent.onToolErrorCallbacks },
  };
}

function errorEvent(context: InvocationContext, code: string, message: string): Event {
  return createEvent({
    invocationId: context.invocationId,
    author: context.agentName,
    branch: context.branch,
    errorCode: code,
    errorMessage: message,
  });
}

/** Hands over to a target this step offered (FL-5 step 6); any other agent is refused. */
async function* transfer(
  context: InvocationContext,
  handoff: TransferSetup | undefined,
  name: string,
): AsyncGenerator<Event, void, undefined> {
  const targets = handoff?.targets ?? [];
  const target = targets.find((agent) => agent.name === name);
  if (!target) {
    const allowed = targets.length > 0 ? `Allowed targets: ${targets.map((agent) => agent.name).join(', ')}.` : 'This agent may not transfer.';
    yield errorEvent(context, 'TRANSFER_ERROR', `Cannot transfer to agent "${quoted(name)}": it is not a transfer target here. ${allowed}`);
    return;
  }
  yield* target.runAsync(context);
}
