import { createUserContent, InMemoryRunner, LlmAgent, stringifyContent } from '@adkit/flow';
import { functionCallResponse, ScriptedModel } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';

// State and actions: the tool reads and writes session state (saved with its response event) and
// sets skipSummarization, so its result ends the turn without another model call.
export const addToCart = functionTool({
  name: 'add_to_cart',
  description: 'Adds an item to the shopping cart.',
  parameters: Type.Object({ item: Type.String(), quantity: Type.Integer({ minimum: 1, default: 1 }) }),
  execute: ({ item, quantity }, ctx) => {
    const cart = { ...ctx.state.get<Record<string, number>>('cart') };
    cart[item] = (cart[item] ?? 0) + quantity;
    ctx.state.set('cart', cart);
    ctx.actions.skipSummarization = true;
    return { cart };
  },
});

export async function stateAndActionsExample(): Promise<{ lines: string[]; state: Record<string, unknown> }> {
  const model = new ScriptedModel([functionCallResponse([{ name: 'add_to_cart', args: { item: 'apple', quantity: '3' } }])]);
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'shop', model, tools: [addToCart] }), autoCreateSession: true });
  const lines: string[] = [];
  for await (const event of runner.runAsync({ userId: 'u1', sessionId: 's1', newMessage: createUserContent('Three apples, please.') }))
    lines.push(`${event.author}: ${stringifyContent(event)}`);
  const session = await runner.sessionService.getSession({ appName: runner.appName, userId: 'u1', sessionId: 's1' });
  return { lines, state: session!.state };
}
