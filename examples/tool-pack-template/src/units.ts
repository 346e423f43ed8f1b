/** A kind of measurement the pack converts, with its units. */
export interface Quantity {
  /** What is measured, e.g. `temperature`. */
  name: string;
  /** The unit symbols, in the order the model is told them. */
  units: readonly string[];
  /** `value` in `unit`, expressed in the quantity's base unit. */
  toBase(value: number, unit: string): number;
  /** A base-unit value, expressed in `unit`. */
  fromBase(value: number, unit: string): number;
}

/** Temperatures in Celsius (`C`), Fahrenheit (`F`) and Kelvin (`K`). */
export const temperature: Quantity = {
  name: 'temperature',
  units: ['C', 'F', 'K'],
  toBase: (value, unit) => (unit === 'C' ? value : unit === 'F' ? ((value - 32) * 5) / 9 : value - 273.15),
  fromBase: (value, unit) => (unit === 'C' ? value : unit === 'F' ? (value * 9) / 5 + 32 : value + 273.15),
};

// A Map, not an object literal: a unit named "__proto__" or "toString" is just unknown.
const METRES = new Map<string, number>([
  ['mm', 0.001],
  ['m', 1],
  ['km', 1000],
  ['in', 0.0254],
  ['ft', 0.3048],
  ['mi', 1609.344],
]);

/** Lengths in mm, m, km, in, ft and mi. */
export const length: Quantity = {
  name: 'length',
  units: [...METRES.keys()],
  toBase: (value, unit) => value * METRES.get(unit)!,
  fromBase: (value, unit) => value / METRES.get(unit)!,
};
