// Pins the public surface: a new export is an API decision, made here on purpose.
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as testing from '../src/testing/index.js';

describe('@adkit/flow exports', () => {
  it('the root entry exports exactly the public API', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'LazySchema', 'MAX_SCHEMA_PROBLEMS', 'checkSchemaSyntax', 'compileSchema', 'formatSchemaErrors', 'formatSchemaPath', 'registerTool',
        'AdkitError', 'ArtifactError', 'BaseAgent', 'CLIENT_FUNCTION_CALL_ID_PREFIX', 'CONFIRMATION_FORMAT_VERSION',
        'ConfigError', 'DeltaState', 'InMemoryArtifactService', 'InMemoryMemoryService', 'InMemoryRunner',
        'InMemorySessionService', 'InvocationContext', 'LlmAgent', 'LoopAgent', 'MAX_VALUE_DEPTH', 'MemoryError',
        'MissingContextVariableError', 'REQUEST_CONFIRMATION_FUNCTION', 'Runner', 'SET_MODEL_RESPONSE',
        'STATE_PREFIX', 'STORED_EVENT_FORMAT', 'SequentialAgent', 'SessionConflictError', 'SessionError', 'SessionEventCache',
        'decodeStoredEvent', 'encodeStoredEvent', 'selectEvents', 'toJsonText', 'TRANSFER_TO_AGENT',
        'ToolTimeoutError', 'appendInstructions', 'applyEventToSession', 'artifactNameProblem', 'assertArtifactName',
        'assertArtifactPart', 'canonicalJson', 'checkSessionVersion', 'createEvent', 'createEventActions',
        'createLlmRequest', 'createModelContent', 'createUserContent', 'deepFreeze', 'errorMessage',
        'eventForStorage', 'getFunctionCalls', 'getFunctionResponses', 'injectSessionState', 'isAdkitError',
        'isClosable', 'isEmptyActions', 'isFinalResponse', 'isModel', 'isRequestProcessor', 'isResponseDeferrer',
        'isResumableTool', 'isRunnableTool', 'isSkipSummarizationResultDisplayer', 'memoryEntriesFromSession', 'memoryEntryText', 'isStreamingTool', 'isToolset',
        'mergeScopedState', 'newFunctionCallId', 'newId', 'packTool', 'pendingConfirmationRequests', 'readonlyState',
        'scanConfirmationRequests', 'splitStateDelta', 'stderrLogger', 'stringifyContent', 'toJsonValue',
        'withoutTempState',
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
