// The public API of @adkit/memory-tools. Every line here is an API decision.
export {};
