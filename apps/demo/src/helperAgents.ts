import { agentTool, type AgentTool } from '@adkit/agent-tool';
import { LlmAgent, type Model } from '@adkit/flow';
import { googleSearch } from '@adkit/gemini-tools';

/** A summarizer agent used as a tool: it works on its own session and hands back one sentence. */
export function summarizerTool(model: Model): AgentTool {
  return agentTool(
    new LlmAgent({
      name: 'summarizer',
      description: 'Summarises a text in one sentence. Pass the whole text as the request.',
      model,
      instruction: 'Summarise the text you are given in one plain sentence.',
    }),
  );
}

/**
 * Google Search, a Gemini-native tool, in an agent of its own on a Gemini model: given to the
 * assistant as a tool, it works whichever model the assistant runs on (Gemini takes native tools
 * beside function tools only in some models, and OpenAI never).
 */
export function webSearchTool(gemini: Model): AgentTool {
  return agentTool(
    new LlmAgent({
      name: 'web_search',
      description: 'Searches the web with Google Search and answers from what it found.',
      model: gemini,
      instruction: 'Answer the request from a Google search, in two or three sentences.',
      tools: [googleSearch],
    }),
  );
}
