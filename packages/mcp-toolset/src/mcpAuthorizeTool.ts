import type { FunctionDeclaration, ToolContext } from '@adkit/flow';
import { BaseTool, toFunctionName } from '@adkit/tool';
import type { McpOAuth } from './mcpAuth.js';

/**
 * The one tool an MCP server behind OAuth lists while the user has not authorized it (adk-python
 * #3331: listing has no way to ask otherwise): calling it asks the user for consent, through an
 * `adk_request_credential` pause; once they have, the next listing has the server's own tools.
 * Listed undeclared beside them after the consent, so the paused call it made can still resume.
 */
export class McpAuthorizeTool extends BaseTool {
  private readonly declared: FunctionDeclaration;

  constructor(
    toolsetName: string,
    private readonly oauth: McpOAuth,
    private readonly declared_ = true,
  ) {
    const name = toFunctionName(`authorize_${toolsetName}`, new Set()).name;
    const description = `Connects to the "${toolsetName}" tools for this user. They need the user's authorization first: call this to ask the user to sign in and allow access; the tools are available once they have.`;
    super({ name, description });
    this.declared = Object.freeze({ name, description, parametersJsonSchema: { type: 'object', properties: {} } });
  }

  declaration(): FunctionDeclaration | undefined {
    return this.declared_ ? this.declared : undefined;
  }

  async run(ctx: ToolContext): Promise<Record<string, unknown> | undefined> {
    return this.oauth.authorized(ctx, async () => ({ status: 'Authorized: the tools are available now.' }));
  }
}
