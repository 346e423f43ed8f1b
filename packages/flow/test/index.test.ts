// Pins the public surface: a new export is an API decision, made here on purpose.
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as testing from '../src/testing/index.js';

describe('@adkit/flow exports', () => {
  it('the root entry exports exactly the public API', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'AdkitError', 'ArtifactError', 'BaseAgent', 'CLIENT_FUNCTION_CALL_ID_PREFIX', 'ConfigError', 'DeltaState',
        'InMemoryArtifactService', 'InMemoryMemoryService', 'InMemoryRunner', 'InMemorySessionService', 'InvocationContext',
        'LlmAgent', 'LoopAgent', 'MemoryError', 'MissingContextVariableError', 'REQUEST_CONFIRMATION_FUNCTION', 'Runner',
        'SET_MODEL_RESPONSE', 'STATE_PREFIX', 'SequentialAgent', 'SessionError', 'TRANSFER_TO_AGENT', 'ToolTimeoutError', 'appendInstructions',
        'applyEventToSession', 'canonicalJson', 'createEvent', 'createEventActions', 'createLlmRequest', 'createModelContent',
        'createUserContent', 'errorMessage', 'eventForStorage', 'functionCallDigest', 'getFunctionCalls', 'getFunctionResponses',
        'injectSessionState', 'isAdkitError', 'isEmptyActions', 'isFinalResponse', 'isModel', 'isRequestProcessor',
        'isResponseDeferrer', 'isRunnableTool', 'isSkipSummarizationResultDisplayer', 'isStreamingTool', 'isToolset',
        'mergeScopedState', 'newFunctionCallId', 'newId', 'packTool', 'readonlyState', 'splitStateDelta', 'stringifyContent',
        'toJsonValue', 'withoutTempState',
      ].sort(),
    );
  });

  it('@adkit/flow/testing exports the test parts', () => {
    expect(Object.keys(testing).sort()).toEqual(['ScriptedModel', 'createToolContext', 'functionCallResponse', 'textResponse']);
  });

  it('errors carry a Symbol.for marker and a stable code, so isAdkitError works across copies', () => {
    const error = new api.ConfigError('x');
    expect(api.isAdkitError(error)).toBe(true);
    expect(error.code).toBe('INVALID_CONFIG');
    expect(api.isAdkitError(new Error('x'))).toBe(false);
    const foreign = Object.assign(new Error('from another copy'), { [Symbol.for('adkit.error')]: true });
    expect(api.isAdkitError(foreign)).toBe(true);
    expect(api.isAdkitError(new api.ToolTimeoutError('t', 5))).toBe(true);
    expect(new api.MissingContextVariableError('k').code).toBe('MISSING_CONTEXT_VARIABLE');
  });
});
