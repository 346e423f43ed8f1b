// The public API of @adkit/mcp-toolset. Every line here is an API decision.
export {};
