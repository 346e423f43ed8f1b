// With OPENAI_API_KEY and OPENAI_BASE_URL set, the assistant runs on the real openai SDK (here
// against the replay server, as against Ollama or vLLM): every tool of every pack is declared to
// the model, and the answer comes back into the transcript. Bad input tried: none from outside.
import { startReplayServer } from '@adkit/replay-server';
import { expect, it, onTestFinished } from 'vitest';
import { demoLines } from './support.js';

it('on an OpenAI-compatible server, the model is offered every tool of every pack', { timeout: 60_000 }, async () => {
  const server = await startReplayServer({
    script: [
      {
        endpoint: '/chat/completions',
        json: {
          id: 'chatcmpl-written',
          object: 'chat.completion',
          created: 1764460800,
          model: 'llama3.2',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Hello! Ask me about the weather.', refusal: null } }],
        },
      },
    ],
  });
  onTestFinished(() => server.close());
  const env = { OPENAI_API_KEY: 'ollama', OPENAI_BASE_URL: server.openaiBaseURL, ADKIT_OPENAI_MODEL: 'llama3.2' };
  const lines = await demoLines({ env, script: [{ session: 's', say: 'Hello' }] });
  expect(lines).toContain(`model: OpenAI llama3.2 at ${server.openaiBaseURL}`);
  expect(lines.slice(-4)).toEqual(['user: Hello', 'assistant: Hello! Ask me about the weather.', '', `(model: OpenAI llama3.2 at ${server.openaiBaseURL})`]);
  const body = server.requests[0]!.body as { model: string; tools: { function: { name: string } }[] };
  expect(body.model).toBe('llama3.2');
  expect(body.tools.map((tool) => tool.function.name).sort()).toEqual(
    [
      'adopt_pet', 'ask_for_approval', 'authorize_calendar', 'book_trip', 'convert_currency', 'get_forecast', 'get_weather', 'list_directory', 'list_pets', 'list_skills', 'load_artifacts',
      'load_memory', 'load_skill', 'load_skill_resource', 'plan_itinerary', 'read_text_file', 'reimburse', 'request_vacation_days', 'save_note',
      'summarizer', 'trip_details', 'write_file',
    ].sort(),
  );
  server.assertDone();
});
