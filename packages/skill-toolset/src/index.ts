// The public API of @adkit/skill-toolset. Every line here is an API decision.
export {};
