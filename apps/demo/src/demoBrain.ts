import type { GenerateContentOptions, LlmRequest, LlmResponse, Model } from '@adkit/flow';
import { replyToArtifacts, replyToLateAnswers, replyToResults } from './brainAnswers.js';
import { lastUserText, lateAnswer, says, type LateAnswer } from './brainRequest.js';
import { replyToWords } from './brainWords.js';

/**
 * The demo's offline model: deterministic, no network. It reads the request as a model would —
 * the user's words, the tools offered, the instruction — and picks tool calls by a few fixed
 * rules (`brainWords.ts`), then words its answer from the tools' real results (`brainAnswers.ts`).
 * Everything else in the demo (tools, MCP servers, skills, memory, artifacts, confirmations) is
 * real.
 */
export class DemoBrain implements Model {
  readonly model = 'demo-brain';

  async *generateContent(request: LlmRequest, options: GenerateContentOptions): AsyncGenerator<LlmResponse> {
    if (options.signal?.aborted) return;
    yield demoBrainReply(request);
  }
}

/** The demo brain's answer to one request. */
export function demoBrainReply(request: LlmRequest): LlmResponse {
  const parts = request.contents.at(-1)?.parts ?? [];
  const responses = parts.flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
  if (responses.length > 0) return replyToResults(responses, request);
  if (/^Artifact .+ is:$/.test(parts[0]?.text ?? '')) return replyToArtifacts(request);
  // Late answers (a long-running call's result, a confirmation approved after other turns): act on
  // the call each one names, not on the newest request.
  const late = parts.map((part) => lateAnswer(part.text ?? '', request));
  if (late.length > 0 && late.every((answer) => answer !== undefined)) return replyToLateAnswers(late as LateAnswer[], request);
  const text = parts.map((part) => part.text ?? '').join('');
  return replyToWords(text || lastUserText(request), request);
}

/**
 * The offline summarizer: one sentence from the text it is given — its first sentence, cut at
 * 16 words — so the agent tool has a real sub-agent to run without a network.
 */
export class SummarizerBrain implements Model {
  readonly model = 'demo-summarizer';

  async *generateContent(request: LlmRequest, options: GenerateContentOptions): AsyncGenerator<LlmResponse> {
    if (options.signal?.aborted) return;
    yield says(summarise(lastUserText(request)));
  }
}

function summarise(text: string): string {
  const sentences = text.trim().split(/(?<=[.!?])\s+/).filter(Boolean);
  if (sentences.length === 0) return 'There is nothing to summarise.';
  const words = sentences[0]!.split(/\s+/);
  const first = words.length > 16 ? `${words.slice(0, 16).join(' ')}…` : sentences[0]!;
  return sentences.length > 1 ? `${first} (and ${sentences.length - 1} more sentence${sentences.length > 2 ? 's' : ''})` : first;
}
