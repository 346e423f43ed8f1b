import { AdkitError } from '@adkit/flow';

/**
 * A credential could not be made, completed, refreshed or stored. Its message never carries a
 * secret (no token, code, client secret or response URI): the flow shows it to the model.
 */
export class CredentialError extends AdkitError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('CREDENTIAL_ERROR', message, options);
    this.name = 'CredentialError';
  }
}
