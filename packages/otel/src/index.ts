// The public API of @adkit/otel. Every line here is an API decision.
export {};
