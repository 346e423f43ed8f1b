// The public API of @acme/adkit-units.
export type { Quantity } from './units.js';
export { temperature, length } from './units.js';
export { ConvertTool } from './convertTool.js';
export type { UnitsToolsetOptions } from './unitsToolset.js';
export { unitsToolset } from './unitsToolset.js';
