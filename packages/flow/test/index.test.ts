// Pins the public surface: a new export is an API decision, made here on purpose.
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as testing from '../src/testing/index.js';
import * as modelKit from '../src/modelKit.js';
import * as store from '../src/store.js';

describe('@adkit/flow exports', () => {
  it('the root entry exports exactly the public API', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'AdkitError', 'ArtifactError', 'BaseAgent', 'CLIENT_FUNCTION_CALL_ID_PREFIX', 'CONFIRMATION_FORMAT_VERSION',
        'ConfigError', 'DeltaState', 'InMemoryArtifactService', 'InMemoryMemoryService', 'InMemoryRunner',
        'InMemorySessionService', 'InvocationContext', 'LazySchema', 'LlmAgent', 'LoopAgent', 'MAX_SCHEMA_PROBLEMS',
        'MAX_VALUE_DEPTH', 'MemoryError', 'MissingContextVariableError', 'REQUEST_CONFIRMATION_FUNCTION', 'Runner',
        'SET_MODEL_RESPONSE', 'STATE_PREFIX', 'SUBSCHEMA_KEYWORDS', 'SequentialAgent', 'SessionConflictError',
        'SessionError', 'TRANSFER_TO_AGENT', 'ToolTimeoutError', 'appendInstructions', 'callSubAgent',
        'checkSchemaSyntax', 'compileSchema', 'createEvent', 'createEventActions', 'createLlmRequest',
        'createModelContent', 'createUserContent', 'errorMessage', 'formatSchemaErrors', 'formatSchemaPath',
        'getFunctionCalls', 'getFunctionResponses', 'injectSessionState', 'isAdkitError', 'isClosable',
        'isEmptyActions', 'isFinalResponse', 'isModel', 'isRequestProcessor', 'isSelfPacking', 'markSelfPacking', 'isResponseDeferrer', 'isResumableTool',
        'isRunnableTool', 'isSkipSummarizationResultDisplayer', 'isStreamingTool', 'isToolSelector', 'isToolset', 'newFunctionCallId',
        'newId', 'packTool', 'pendingConfirmationRequests', 'pendingLongRunningCalls', 'readonlyState',
        'registerTool', 'replaceTool', 'requestText', 'scanConfirmationRequests', 'stderrLogger', 'stringifyContent',
        'toJsonValue', 'unansweredResponse', 'verifiedPendingConfirmationRequests',
        'CREDENTIAL_FORMAT_VERSION', 'REQUEST_CREDENTIAL_FUNCTION', 'credentialKeyOf', 'pendingCredentialRequestsIn',
        'readyCredential', 'redactAuthConfig', 'redactCredential', 'scanCredentialRequests',
        'SchemaCheck', 'formatStandardIssues', 'isStandardSchema',
        'quoted',
        'MAX_RESPONSE_PARTS', 'responsePartsOf', 'withResponseParts', 'MODEL_VIEW_METADATA', 'isModelOutputMapper',
        'FINISH_TASK', 'SINGLE_TURN_NUDGE', 'TASK_METADATA_KEY', 'openTasks', 'taskOpeningOf',
      ].sort(),
    );
  });

  it('@adkit/flow/model-kit exports the building blocks for model adapters', () => {
    expect(Object.keys(modelKit).sort()).toEqual(
      [
        'BrokenStreamError', 'DEFAULT_MAX_RESPONSE_BYTES', 'ResponseStalledError', 'ResponseTooLargeError', 'brokenStreamResponse', 'count',
        'emptyReplyResponse', 'fetchGuardError', 'guardedFetch', 'incompleteStreamResponse', 'isBrokenStream', 'raceAbort', 'readStream', 'requestSignal',
      ].sort(),
    );
  });

  it('@adkit/flow/store exports the building blocks for store authors, and the root does not', () => {
    const keys = Object.keys(store).sort();
    expect(keys).toEqual(
      [
        'STORED_EVENT_FORMAT', 'SessionEventCache', 'applyEventToSession', 'artifactNameProblem', 'assertArtifactName',
        'assertArtifactPart', 'canonicalJson', 'checkSessionVersion', 'decodeStoredEvent', 'deepFreeze', 'encodeStoredEvent',
        'eventForStorage', 'eventQuery', 'memoryEntriesFromSession', 'memoryEntryText', 'mergeScopedState',
        'prepareStoredEvent', 'selectEvents', 'splitStateDelta', 'storedStateText', 'toJsonText', 'withoutTempState',
      ].sort(),
    );
    for (const key of keys) expect(Object.hasOwn(api, key)).toBe(false);
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
