import type { CallbackContext } from '../context/callbackContext.js';
import { errorMessage } from '../errors.js';
import type { FunctionResponsePart } from '../content/responseParts.js';
import { TOOL_OUTPUT_ARTIFACT_PREFIX } from './toolOutputBudget.js';

/** What `budgetResponseParts` leaves: the parts the model gets, and a note on those set aside. */
export interface BudgetedParts {
  parts: FunctionResponsePart[];
  /** For the response: each part set aside, with its artifact when it could be saved. */
  setAside: Array<{ mimeType: string; sizeBytes: number; artifact?: string }>;
}

/**
 * Keeps the inline parts of one response within the agent's `maxToolOutputBytes` (#30): an inline
 * part whose bytes are over the budget is saved as the artifact
 * `tool-outputs/<tool>-<call id>-part<i>` (its media type kept) and left out of the response; the
 * response says so in `partsSetAside`, so the model can load it with `load_artifacts` when it must.
 * File references cost nothing and stay. When a part cannot be saved it is still left out (the
 * logger is told): a budget is never exceeded.
 */
export async function budgetResponseParts(
  toolName: string,
  functionCallId: string,
  parts: readonly FunctionResponsePart[],
  maxBytes: number,
  context: Pick<CallbackContext, 'saveArtifact' | 'logger'>,
): Promise<BudgetedParts> {
  const kept: FunctionResponsePart[] = [];
  const setAside: BudgetedParts['setAside'] = [];
  for (const [i, part] of parts.entries()) {
    const data = part.inlineData?.data;
    // Base64 carries 3 bytes in 4 characters.
    const sizeBytes = data === undefined ? 0 : Math.floor((data.length * 3) / 4);
    if (data === undefined || sizeBytes <= maxBytes) {
      kept.push(part);
      continue;
    }
    const mimeType = part.inlineData!.mimeType ?? 'application/octet-stream';
    const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/\.{2,}/g, '_').slice(0, 100);
    const artifact = `${TOOL_OUTPUT_ARTIFACT_PREFIX}${safe(toolName)}-${safe(functionCallId) || 'call'}-part${i}`;
    try {
      await context.saveArtifact(artifact, { inlineData: { ...part.inlineData } });
      setAside.push({ mimeType, sizeBytes, artifact });
    } catch (error) {
      context.logger.warn(`adkit: part ${i} of the result of ${toolName} (${sizeBytes} bytes) is over maxToolOutputBytes and could not be saved as an artifact: ${errorMessage(error)}`);
      setAside.push({ mimeType, sizeBytes });
    }
  }
  return { parts: kept, setAside };
}
