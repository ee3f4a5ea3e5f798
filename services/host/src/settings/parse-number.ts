import { InvalidArgumentError } from "commander";

/**
 * Commander argument parser for a whole number ≥ 1.
 *
 * @throws InvalidArgumentError otherwise (commander prints it with the usage).
 */
export function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) {
    throw new InvalidArgumentError(`expected a whole number ≥ 1, got "${value}"`);
  }
  return number;
}

/**
 * Commander argument parser for a whole number ≥ 0.
 *
 * @throws InvalidArgumentError otherwise.
 */
export function nonNegativeInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) {
    throw new InvalidArgumentError(`expected a whole number ≥ 0, got "${value}"`);
  }
  return number;
}

/**
 * Parses a TCP port for a listening socket: 0 (any free port) to 65535.
 *
 * @param value - the option's text.
 * @returns the port.
 * @throws InvalidArgumentError otherwise.
 */
export function portNumber(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(port) || port > 65_535) {
    throw new InvalidArgumentError(`expected a port from 0 to 65535, got "${value}"`);
  }
  return port;
}
