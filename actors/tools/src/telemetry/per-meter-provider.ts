import { metrics, type Meter, type MeterProvider } from "@opentelemetry/api";
import { TELEMETRY_SCOPE } from "@troupe/protocol";

/**
 * An instrument made on first use from the global meter provider, and made
 * again only when that provider changed (an SDK registered after this module
 * loaded, a test's in-memory provider): the OpenTelemetry API has no proxy
 * for meters, so an instrument made from the no-op provider stays a no-op
 * (docs/decisions/0037).
 *
 * @param create - makes the instrument from the `troupe` meter.
 * @returns a function giving the current provider's instrument.
 */
export function perMeterProvider<T>(create: (meter: Meter) => T): () => T {
  let made: { provider: MeterProvider; instrument: T } | undefined;
  return () => {
    const provider = metrics.getMeterProvider();
    if (made?.provider !== provider) {
      made = { provider, instrument: create(provider.getMeter(TELEMETRY_SCOPE)) };
    }
    return made.instrument;
  };
}
