import type { UsageMetadata } from '@adkit/flow';

/** Chat Completions `finish_reason` → genai `FinishReason` (`stop`/`tool_calls` → STOP, `length` → MAX_TOKENS, `content_filter` → SAFETY). */
export function chatFinishReason(reason: string | null | undefined): string | undefined {
  switch (reason) {
    case null:
    case undefined:
      return undefined;
    case 'stop':
    case 'tool_calls':
    case 'function_call':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    default:
      return 'OTHER';
  }
}

/** Responses API status (and `incomplete_details.reason`) → genai `FinishReason`. */
export function responsesFinishReason(status: string | undefined, incompleteReason: string | undefined): string | undefined {
  if (status === 'completed') return 'STOP';
  if (status === 'incomplete') {
    if (incompleteReason === 'max_output_tokens') return 'MAX_TOKENS';
    if (incompleteReason === 'content_filter') return 'SAFETY';
    return 'OTHER';
  }
  return status === 'failed' || status === 'cancelled' ? 'OTHER' : undefined;
}

interface OpenAIUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  input_tokens_details?: { cached_tokens?: number | null } | null;
  output_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/**
 * OpenAI usage (either API) → genai usage. As in genai, `candidatesTokenCount` excludes the
 * reasoning tokens, which go to `thoughtsTokenCount`.
 */
export function usageMetadata(usage: OpenAIUsage | null | undefined): UsageMetadata | undefined {
  if (!usage) return undefined;
  const prompt = usage.prompt_tokens ?? usage.input_tokens;
  const output = usage.completion_tokens ?? usage.output_tokens;
  const reasoning = (usage.completion_tokens_details ?? usage.output_tokens_details)?.reasoning_tokens ?? undefined;
  const cached = (usage.prompt_tokens_details ?? usage.input_tokens_details)?.cached_tokens ?? undefined;
  const metadata: UsageMetadata = {};
  if (prompt !== undefined) metadata.promptTokenCount = prompt;
  if (output !== undefined) metadata.candidatesTokenCount = output - (reasoning ?? 0);
  if (usage.total_tokens !== undefined) metadata.totalTokenCount = usage.total_tokens;
  if (reasoning) metadata.thoughtsTokenCount = reasoning;
  if (cached) metadata.cachedContentTokenCount = cached;
  return metadata;
}
