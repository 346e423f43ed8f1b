// The public API of @adkit/agent-tool. Every line here is an API decision.
export {};
