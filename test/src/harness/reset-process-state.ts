/**
 * vitest setup file of the integration suites (`test/vitest.config.ts`): runs
 * before each test file. The workers reuse one module graph across files
 * (`isolate: false`, decision 0046), so process-wide state a file set stays
 * for the next file of that worker. OpenTelemetry's global providers are such
 * state: a global that is already registered makes the next
 * `setGlobalMeterProvider` fail quietly. Each file starts without them.
 */
import { context, metrics, propagation, trace } from "@opentelemetry/api";

metrics.disable();
trace.disable();
propagation.disable();
context.disable();
