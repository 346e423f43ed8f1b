// Pins the public surface: a new export is an API decision, made here on purpose.
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as testing from '../src/testing/index.js';
import * as modelKit from '../src/modelKit.js';

describe('@adkit/flow exports', () => {
  it('the root entry exports exactly the public API', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'AdkitError', 'ArtifactError', 'BaseAgent', 'CLIENT_FUNCTION_CALL_ID_PREFIX', 'CONFIRMATION_FORMAT_VERSION',
        'ConfigError', 'DeltaState', 'InMemoryArtifactService', 'InMemoryMemoryService', 'InMemoryRunner',
        'InMemorySessionService', 'InvocationContext', 'LazySchema', 'SUBSCHEMA_KEYWORDS', 'LlmAgent', 'LoopAgent', 'MAX_SCHEMA_PROBLEMS',
        'MAX_VALUE_DEPTH', 'MemoryError', 'MissingContextVariableError', 'REQUEST_CONFIRMATION_FUNCTION', 'Runner',
        'SET_MODEL_RESPONSE', 'STATE_PREFIX', 'STORED_EVENT_FORMAT', 'SequentialAgent', 'SessionConflictError',
        'SessionError', 'SessionEventCache', 'TRANSFER_TO_AGENT', 'ToolTimeoutError', 'appendInstructions',
        'applyEventToSession', 'artifactNameProblem', 'assertArtifactName', 'assertArtifactPart', 'callSubAgent',
        'canonicalJson', 'checkSchemaSyntax', 'checkSessionVersion', 'compileSchema', 'createEvent',
        'createEventActions', 'createLlmRequest', 'createModelContent', 'createUserContent', 'decodeStoredEvent',
        'deepFreeze', 'encodeStoredEvent', 'errorMessage', 'eventForStorage', 'formatSchemaErrors',
        'formatSchemaPath', 'getFunctionCalls', 'getFunctionResponses', 'injectSessionState', 'isAdkitError',
        'isClosable', 'isEmptyActions', 'isFinalResponse', 'isModel', 'isRequestProcessor', 'isResponseDeferrer',
        'isResumableTool', 'isRunnableTool', 'isSkipSummarizationResultDisplayer', 'isStreamingTool', 'isToolset',
        'memoryEntriesFromSession', 'memoryEntryText', 'mergeScopedState', 'newFunctionCallId', 'newId', 'packTool',
        'pendingConfirmationRequests', 'readonlyState', 'registerTool', 'scanConfirmationRequests', 'selectEvents',
        'splitStateDelta', 'stderrLogger', 'stringifyContent', 'toJsonText', 'toJsonValue', 'withoutTempState',
        'eventQuery', 'prepareStoredEvent', 'storedStateText',
      ].sort(),
    );
  });

  it('@adkit/flow/model-kit exports the building blocks for model adapters', () => {
    expect(Object.keys(modelKit).sort()).toEqual(
      ['BrokenStreamError', 'brokenStreamResponse', 'count', 'emptyReplyResponse', 'incompleteStreamResponse', 'isBrokenStream', 'readStream', 'requestSignal'].sort(),
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
