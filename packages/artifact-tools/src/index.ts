// The public API of @adkit/artifact-tools. Every line here is an API decision.
export {};
