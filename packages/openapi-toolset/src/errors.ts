import { AdkitError } from '@adkit/flow';

/**
 * An OpenAPI description that cannot be used: unreadable, not OpenAPI 3.x, or refused by the
 * parser. Thrown by the toolset's first `tools()` call (the flow reports it as a toolset that
 * failed to list, and the rest of the agent's tools still run); code `OPENAPI_SPEC_ERROR`.
 */
export class OpenApiSpecError extends AdkitError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('OPENAPI_SPEC_ERROR', message, options);
    this.name = 'OpenApiSpecError';
  }
}
