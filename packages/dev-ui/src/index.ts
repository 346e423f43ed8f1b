// The public API of @adkit/dev-ui. Every line here is an API decision.
export type { ServeDevUiOptions, DevUiServer } from './serveDevUi.js';
export { serveDevUi } from './serveDevUi.js';
export type { DevUiPlugin, DevUiPluginOptions } from './devUiPlugin.js';
export { devUiPlugin, isDevUiPlugin } from './devUiPlugin.js';
